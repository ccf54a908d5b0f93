import Foundation
import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// Push through the batch endpoint of a real todo-server: what is sent, and that every rule of
/// the one-request-per-operation push still holds.
@Suite struct BatchPushTests {
    /// A fixture whose requests are recorded, with an optional delegate.
    private func recorded(delegate: (any SyncContextDelegate)? = nil) async throws -> (SyncFixture, FaultyTransport) {
        let transport = FaultyTransport()
        let made = try await SyncFixture.make()
        return (try SyncFixture(table: made.table, storePath: made.storePath, serverURL: made.serverURL, delegate: delegate, transport: transport),
                transport)
    }

    private func writes(_ transport: FaultyTransport) -> [String] {
        transport.requests.filter { !$0.hasPrefix("GET") }
    }

    @Test func queuedInsertsGoInOneBatchRequest() async throws {
        let (f, transport) = try await recorded()
        for i in 0..<20 { try await f.local.insert(todo("i\(i)", "item \(i)")) }
        try await f.context.push()
        #expect(writes(transport) == ["POST /tables/$batch"])
        #expect(f.context.pendingOperationsCount == 0)
        let server = try await f.serverItems()
        #expect(server.count == 20)
        #expect(try f.local.read(id: "i7")?["version"] == server["i7"]?["version"])
    }

    @Test func insertsUpdatesAndDeletesOfOneBatchAllReachTheServer() async throws {
        let (f, transport) = try await recorded()
        for i in 0..<3 { try await f.local.insert(todo("i\(i)", "item \(i)")) }
        try await f.context.push()
        try await f.local.update(["id": "i0", "text": "changed"])
        try await f.local.delete(["id": "i1"])
        try await f.local.insert(todo("new", "new"))
        try await f.context.push()
        #expect(writes(transport) == ["POST /tables/$batch", "POST /tables/$batch"])
        let server = try await f.serverItems()
        #expect(server["i0"]?["text"] == "changed")
        #expect(server["i1"]?["deleted"] == true)
        #expect(server["new"]?["text"] == "new")
        #expect(f.context.pendingOperationsCount == 0)
    }

    @Test func aLargeQueueIsSentInChunksOf500() async throws {
        let (f, transport) = try await recorded()
        for i in 0..<1_200 { _ = try await f.local.insert(todo("i\(i)", "item \(i)")) }
        try await f.context.push()
        #expect(writes(transport).count == 3)
        #expect(try await f.serverItems().count == 1_200)
    }

    @Test func conflictsInsideABatchReachTheDelegateOneByOneAndTheRestIsSent() async throws {
        let a = try await SyncFixture.make(mergePolicy: .askAlways)
        for i in 0..<4 { try await a.local.insert(todo("i\(i)", "item \(i)")) }
        try await a.context.push()
        let resolver = ScriptedResolver(.client)
        let b = try a.otherDevice(delegate: resolver, mergePolicy: .askAlways)
        try await b.local.pull()
        try await a.local.update(["id": "i1", "text": "a1"])
        try await a.local.update(["id": "i3", "text": "a3"])
        try await a.context.push()
        for i in 0..<4 { try await b.local.update(["id": .string("i\(i)"), "text": .string("b\(i)")]) }
        try await b.context.push()
        #expect(resolver.conflicts.map(\.itemId) == ["i1", "i3"])
        let server = try await a.serverItems()
        #expect((0..<4).map { server["i\($0)"]?["text"]?.stringValue } == ["b0", "b1", "b2", "b3"])
        #expect(b.context.pendingOperationsCount == 0)
    }

    @Test func aStaleUpdateWithoutADelegateIsRecordedWhileTheOthersSucceed() async throws {
        let a = try await SyncFixture.make()
        for i in 0..<3 { try await a.local.insert(todo("i\(i)", "item \(i)")) }
        try await a.context.push()
        let b = try a.otherDevice()
        try await b.local.pull()
        try await a.local.update(["id": "i1", "text": "from a"])
        try await a.context.push()
        for i in 0..<3 { try await b.local.update(["id": .string("i\(i)"), "text": .string("from b")]) }
        await #expect(throws: SyncError.self) { try await b.context.push() }
        let errors = try b.context.operationErrors()
        #expect(errors.map(\.itemId) == ["i1"])
        #expect(errors.first?.statusCode == 412)
        #expect(errors.first?.serverItem?["text"] == "from a")
        #expect(b.context.pendingOperationsCount == 1)
        let server = try await a.serverItems()
        #expect(server["i0"]?["text"] == "from b")
        #expect(server["i2"]?["text"] == "from b")
    }

    @Test func aServerWithoutTheEndpointGetsOneRequestPerOperation() async throws {
        let (f, transport) = try await recorded()
        transport.fail(path: "/capabilities", with: .status404)
        for i in 0..<3 { try await f.local.insert(todo("i\(i)", "item \(i)")) }
        try await f.context.push()
        #expect(writes(transport) == Array(repeating: "POST /tables/\(f.table)", count: 3))
        #expect(try await f.serverItems().count == 3)
    }

    @Test func aBatchRefusedAsAWholeIsSentOperationByOperation() async throws {
        let (f, transport) = try await recorded()
        transport.fail(path: "/$batch", with: .status500)
        for i in 0..<3 { try await f.local.insert(todo("i\(i)", "item \(i)")) }
        try await f.context.push()
        #expect(writes(transport) == ["POST /tables/$batch"] + Array(repeating: "POST /tables/\(f.table)", count: 3))
        #expect(f.context.pendingOperationsCount == 0)
    }

    @Test func aBatchAnsweredWithGarbageIsSentOperationByOperation() async throws {
        let (f, transport) = try await recorded()
        transport.fail(path: "/$batch", with: .garbage200)
        for i in 0..<3 { try await f.local.insert(todo("i\(i)", "item \(i)")) }
        try await f.context.push()
        #expect(f.context.pendingOperationsCount == 0)
        #expect(try await f.serverItems().count == 3)
    }

    @Test func aBatchWhoseReplyIsLostIsSentAgainWithoutDuplicates() async throws {
        let (f, transport) = try await recorded()
        transport.fail(path: "/$batch", with: .cutOff)
        for i in 0..<3 { try await f.local.insert(todo("i\(i)", "item \(i)")) }
        await #expect(throws: SyncError.self) { try await f.context.push() }
        #expect(f.context.pendingOperationsCount == 3)
        transport.fail(path: "/$batch", with: nil)
        try await f.context.push()
        #expect(f.context.pendingOperationsCount == 0)
        let server = try await f.serverItems()
        #expect(server.count == 3)
        #expect(try f.local.read(id: "i2")?["version"] == server["i2"]?["version"])
    }

    @Test func anItemChangedWhileItsBatchIsSentKeepsTheChangeAndSendsItNext() async throws {
        let (f, transport) = try await recorded()
        for i in 0..<3 { try await f.local.insert(todo("i\(i)", "item \(i)")) }
        transport.before("POST", endingWith: "/$batch", number: 1) {
            try await f.local.update(["id": "i1", "text": "changed meanwhile"])
        }
        try await f.context.push()
        #expect(writes(transport) == ["POST /tables/$batch", "PATCH /tables/\(f.table)/i1"])
        #expect(f.context.pendingOperationsCount == 0)
        let server = try await f.serverItems()
        #expect(server["i1"]?["text"] == "changed meanwhile")
        #expect(try f.local.read(id: "i1")?["text"] == "changed meanwhile")
        #expect(try f.local.read(id: "i1")?["version"] == server["i1"]?["version"])
        #expect(try f.local.read(id: "i2")?["version"] == server["i2"]?["version"])
    }

    @Test func anItemChangedWhileItsBatchIsOnItsWayWaitsForThatAnswerBeforeItIsSent() async throws {
        let (f, transport) = try await recorded()
        for i in 0..<1_200 { _ = try await f.local.insert(todo("i\(i)", "item \(i)")) }
        try await f.context.push()
        // Updates carry versions: one sent on a version the server has moved past meets a 412.
        for i in 0..<1_200 { _ = try await f.local.update(["id": .string("i\(i)"), "text": .string("edited \(i)")]) }
        // The second batch carries i700; the third is read and sent while the second awaits its answer.
        transport.before("POST", endingWith: "/$batch", number: 2) {
            try await f.local.update(["id": "i700", "text": "changed meanwhile"])
        }
        try await f.context.push()
        #expect(f.context.pendingOperationsCount == 0)
        let server = try await f.serverItems()
        #expect(server.count == 1_200)
        #expect(server["i700"]?["text"] == "changed meanwhile")
        #expect(try f.local.read(id: "i700")?["version"] == server["i700"]?["version"])
    }

    @Test func aPushCancelledWhileTheNextBatchesAreOnTheirWayKeepsWhatThoseBatchesDid() async throws {
        let a = try await SyncFixture.make()
        for i in 0..<2_000 { _ = try await a.local.insert(todo("i\(i)", "item \(i)")) }
        try await a.context.push()
        let b = try a.otherDevice(delegate: ScriptedResolver(.cancel), mergePolicy: .askAlways)
        try await b.local.pull()
        try await a.local.update(["id": "i10", "text": "from a"])
        try await a.context.push()
        for i in 0..<2_000 { _ = try await b.local.update(["id": .string("i\(i)"), "text": .string("b \(i)")]) }
        // The first batch meets the clash on i10 and the push stops; the second and third were
        // sent meanwhile (PushRun.batchesInFlight), the fourth was not.
        await #expect(throws: SyncError.self) { try await b.context.push() }
        #expect(b.context.pendingOperationsCount == 501, "i10 and the fourth batch stay queued")
        let server = try await a.serverItems()
        for id in ["i600", "i1200"] {
            #expect(server[id]?["text"] == .string("b \(id.dropFirst())"))
            #expect(try b.local.read(id: id)?["version"] == server[id]?["version"])
        }
        #expect(server["i1600"]?["text"] == "item 1600")
        #expect(server["i10"]?["text"] == "from a")
    }

    @Test func aDelegateThatHooksEachOperationStillSeesEveryOne() async throws {
        let delegate = ConflictDelegate(.fail)
        let (f, transport) = try await recorded(delegate: delegate)
        for i in 0..<3 { try await f.local.insert(todo("i\(i)", "item \(i)")) }
        try await f.context.push()
        #expect(writes(transport).count == 3)
        #expect(!transport.requests.contains("GET /capabilities"))
    }
}
