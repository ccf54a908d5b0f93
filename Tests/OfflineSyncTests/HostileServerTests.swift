import Foundation
import ServerTestSupport
import OfflineSync
import TableProtocol
import Testing

/// A server that answers what no sync server would (a proxy's 403, a web page, a login page's
/// JSON, numbers out of range, the same page forever): no change is lost, nothing crashes, and
/// the sync ends with an error that says so.
@Suite struct HostileServerTests {
    /// Items "a" and "b" on the server; then "a" edited and "b" deleted here, each sent alone,
    /// and the server's answer to both is `fault`.
    func editAndDeleteAnswered(with fault: FaultyTransport.Fault, _ transport: FaultyTransport) async throws -> SyncFixture {
        let f = try await SyncFixture.make(transport: transport)
        transport.fail(path: "/capabilities", with: .status404)  // one request per change
        try await f.local.insert(todo("a", "first"))
        try await f.local.insert(todo("b", "doomed"))
        try await f.context.push()
        transport.fail("PATCH", with: fault)
        transport.fail("DELETE", with: fault)
        try await f.local.update(todo("a", "second"))
        try await f.local.delete(todo("b", "doomed"))
        return f
    }

    @Test func aPlain403KeepsTheChangesQueuedAndNoneIsTakenForAReadOnlySpaceRefusal() async throws {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport)
        transport.fail("POST", with: .status403)
        try await f.local.insert(todo("a", "mine"))
        await #expect(throws: SyncError.self) { try await f.context.push() }
        #expect(try f.context.operationErrors().first?.code != SyncErrorCode.readOnlySpace.rawValue)
        #expect(try await f.context.dropRefusedChanges(reason: "read-only") == 0)
        #expect(f.context.pendingOperationsCount == 1)
        #expect(try f.local.read(id: "a")?["text"] == "mine")
    }

    @Test func aWriteAnsweredWithAnObjectForAnotherIdIsNotTakenAsDone() async throws {
        let transport = FaultyTransport()
        let f = try await editAndDeleteAnswered(with: .loginPageJSON, transport)
        await #expect(throws: SyncError.self) { try await f.context.push() }
        #expect(f.context.pendingOperationsCount == 2)
        #expect(try f.context.operationErrors().allSatisfy { $0.message.contains("not the item written") })
        #expect(try f.local.read(id: "login") == nil)
        transport.fail("PATCH", with: nil)
        transport.fail("DELETE", with: nil)
        try await f.context.push()
        let server = try await f.serverItems()
        #expect(server["a"]?["text"] == "second")
        #expect(server["b"]?["deleted"] == .bool(true))
    }

    @Test func aWebPages404KeepsDeletesAndEditsQueuedWithoutAConflict() async throws {
        let transport = FaultyTransport()
        let f = try await editAndDeleteAnswered(with: .html404, transport)
        do {
            try await f.context.push()
            Issue.record("the push should stop")
        } catch let error as SyncError {
            #expect(error.code == .pushAbortedNetwork)
            #expect(error.message.contains("is the server URL right?"))
        }
        #expect(f.context.pendingOperationsCount == 2)
        #expect(try f.context.operationErrors().isEmpty)
        #expect(try await f.serverItems()["b"]?["deleted"] == .bool(false))
    }

    @Test func capabilitiesWithNumbersOutOfRangeOfferNothing() async throws {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport)
        transport.fail(path: "/capabilities", with: .body200(
            #"{"batch":{"path":"/tables/$batch","maxOperations":1e300,"maxBytes":1e19},"query":{"maxTop":1e300,"keysetPaging":true}}"#))
        for id in ["a", "b", "c"] { try await f.local.insert(todo(id, "x")) }  // several: a push asks about batches
        try await f.context.push()
        #expect(transport.requests.contains("GET /capabilities"))
        #expect(!transport.requests.contains { $0.contains("$batch") })
        #expect(try await f.serverItems().count == 3)
    }

    @Test func aBatchPathThatIsNoPathStaysOnThisServerAndCrashesNothing() async throws {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport)
        transport.fail(path: "/capabilities", with: .body200(#"{"batch":{"path":"http://evil.example/x y?z","maxOperations":10,"maxBytes":100000}}"#))
        for id in ["a", "b", "c"] { try await f.local.insert(todo(id, "x")) }  // several: a push asks about batches
        try await f.context.push()  // the batch fails on this server's odd path; each change goes alone
        #expect(transport.requests.contains("POST /http://evil.example/x y?z"))  // the path, on this server
        #expect(try await f.serverItems().count == 3)
    }

    @Test func aBatchResultWithAStatusOutOfRangeSendsEachChangeAlone() async throws {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport)
        transport.fail(path: "/$batch", with: .body200(#"{"results":[{"status":1e300,"body":{}},{"status":201,"body":{}}]}"#))
        for id in ["a", "b"] { try await f.local.insert(todo(id, "x")) }
        try await f.context.push()
        #expect(transport.requests.contains { $0.contains("$batch") })
        #expect(try await f.serverItems().count == 2)
    }

    @Test func aRowStampedFarInTheFutureDoesNotHoldBackOtherDevicesChanges() async throws {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport)
        transport.fail("GET", with: .dated200(#"[{"id":"future","text":"from a clock that jumped","updatedAt":"9999-12-31T23:59:59.999Z","version":"v1"}]"#))
        _ = try? await f.local.pull(queryId: "all")  // the same page again ends it, after the first is stored
        #expect(try f.local.read(id: "future") != nil)
        transport.fail("GET", with: nil)
        let other = try f.otherDevice()
        try await other.local.insert(todo("later", "written after"))
        try await other.context.push()
        try await f.local.pull(queryId: "all")
        #expect(try f.local.read(id: "later")?["text"] == "written after")
    }

    @Test func aServerAnsweringTheSamePageForeverEndsThePullWithAnError() async throws {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport)
        transport.fail("GET", with: .body200(
            #"{"results":[{"id":"x","text":"again","updatedAt":"2026-01-01T00:00:00.000Z","version":"v1"}],"count":1e300}"#))
        await #expect { try await f.local.pull(queryId: "all") } throws: { ($0 as? SyncError)?.message.contains("same page") == true }
        #expect(try f.local.read(id: "x")?["text"] == "again")
    }
}

/// A reply dripped a byte at a time never pauses long enough for a read timeout.
@Suite struct DrippedReplyTests {
    @Test func aReplyWhoseBodyDripsPastTheTimeoutEndsThePushAndKeepsTheChange() async throws {
        let server = try DrippingServer(interval: 0.3)
        let store = try SQLiteSyncStore(path: try TempDir.make().appendingPathComponent("local.sqlite").path,
                                        tables: [SyncTableDefinition(name: "todo", columns: ["text": .text])])
        let client = SyncClient(serverURL: URL(string: "http://127.0.0.1:\(server.port)")!,
                                configuration: SyncClientConfiguration(timeout: 1, installationID: "drip"))
        let context = SyncContext(client: client, dataSource: store)
        try await context.table("todo").insert(["id": "a", "text": "mine"])
        let started = ContinuousClock.now
        await #expect { try await context.push() } throws: { ($0 as? SyncError)?.code == .pushAbortedNetwork }
        #expect(ContinuousClock.now - started < .seconds(8), "the body's 36 bytes take 11 s; the timeout is 1 s")
        #expect(context.pendingOperationsCount == 1)
    }
}
