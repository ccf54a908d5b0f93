import Foundation
import OfflineSync
import TableProtocol
import Testing

/// A server that answers 500, garbage, or drops the reply: errors recorded, nothing lost.
@Suite struct FaultTests {
    @Test func serverErrorIsRecordedAndTheOperationKept() async throws {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport)
        transport.fail("POST", with: .status500)
        try await f.local.insert(todo("a", "x"))
        do {
            try await f.context.push()
            Issue.record("push should complete with errors")
        } catch let error as SyncError {
            #expect(error.code == .pushCompletedWithErrors)
            #expect(error.operationErrors.first?.statusCode == 500)
            #expect(error.operationErrors.first?.message == "boom")
        }
        #expect(f.context.pendingOperationsCount == 1)
        transport.fail("POST", with: nil)
        try await f.context.push()
        #expect(try await f.serverItems()["a"]?["text"] == "x")
        #expect(try f.context.operationErrors().isEmpty)
    }

    @Test func garbageReplyIsRecordedAndTheOperationKept() async throws {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport)
        transport.fail("POST", with: .garbage200)
        try await f.local.insert(todo("a", "x"))
        await #expect(throws: SyncError.self) { try await f.context.push() }
        #expect(f.context.pendingOperationsCount == 1)
        #expect(try f.local.read(id: "a")?["text"] == "x")
    }

    @Test func otherOperationsStillPushAfterAFailure() async throws {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport)
        try await f.local.insert(todo("a", "x"))
        try await f.context.push()
        // One request per operation (the batch path's per-operation failures: BatchPushTests).
        transport.fail(path: "/capabilities", with: .status404)
        transport.fail("PATCH", with: .status500)
        try await f.local.update(todo("a", "y"))
        try await f.local.insert(todo("b", "still goes"))
        await #expect(throws: SyncError.self) { try await f.context.push() }
        #expect(try await f.serverItems()["b"]?["text"] == "still goes")
        #expect(f.context.pendingOperationsCount == 1)
    }

    @Test func insertWhoseReplyWasMangledIsNotDuplicatedOnRetry() async throws {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport)
        transport.fail("POST", with: .garbage201)
        try await f.local.insert(todo("a", "once"))
        await #expect(throws: SyncError.self) { try await f.context.push() }
        transport.fail("POST", with: nil)
        try await f.context.push()
        let server = try await f.serverItems()
        #expect(server.count == 1)
        #expect(f.context.pendingOperationsCount == 0)
    }

    @Test func insertWhoseReplyWasCutOffAbortsThenRetriesWithoutAConflict() async throws {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport)
        transport.fail("POST", with: .cutOff)
        try await f.local.insert(todo("a", "once"))
        do {
            try await f.context.push()
            Issue.record("push should abort")
        } catch let error as SyncError {
            #expect(error.code == .pushAbortedNetwork)
        }
        transport.fail("POST", with: nil)
        try await f.context.push()
        #expect(try await f.serverItems().count == 1)
        #expect(try f.context.operationErrors().isEmpty)
    }

    @Test func pullSendsNothingWhenItsImplicitPushFails() async throws {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport)
        transport.fail("POST", with: .status500)
        try await f.local.insert(todo("a", "pending"))
        await #expect(throws: SyncError.self) { try await f.local.pull() }
        #expect(!transport.requests.contains { $0.hasPrefix("GET") })
    }

    @Test func anInsertWhoseReplyWasLostIsDeletedOnTheServerWhenDeletedHere() async throws {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport)
        try await f.local.insert(todo("gone", "stored, reply lost"))
        transport.fail("POST", with: .cutOff)
        await #expect(throws: SyncError.self) { try await f.context.push() }
        transport.fail("POST", with: nil)
        try await f.local.delete(["id": "gone"])
        try await f.context.push()
        #expect(try await f.serverItems()["gone"]?["deleted"] == true)
        #expect(f.context.pendingOperationsCount == 0)
    }

    @Test func anInsertWhoseReplyWasLostAndThatChangedSinceSendsTheChangeWithoutAConflict() async throws {
        let transport = FaultyTransport()
        let resolver = ScriptedResolver(nil)  // asked, it would leave the conflict unsettled
        let made = try await SyncFixture.make()
        let f = try SyncFixture(table: made.table, storePath: made.storePath, serverURL: made.serverURL, delegate: resolver, transport: transport)
        try await f.local.insert(todo("x", "first words"))
        transport.fail("POST", with: .cutOff)
        await #expect(throws: SyncError.self) { try await f.context.push() }
        transport.fail("POST", with: nil)
        try await f.local.update(["id": "x", "text": "second words"])  // joins the queued insert
        try await f.context.push()
        #expect(resolver.conflicts.isEmpty)
        #expect(f.context.pendingOperationsCount == 0)
        let server = try await f.serverItems()["x"]
        #expect(server?["text"] == "second words")
        #expect(try f.local.read(id: "x")?["version"] == server?["version"])
    }

    /// The server takes an edit whose reply is lost; the item then changes here again.
    func editWithALostReply(then change: (SyncFixture) async throws -> Void) async throws -> SyncFixture {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport)
        transport.fail(path: "/capabilities", with: .status404)  // one request per change
        try await f.local.insert(todo("a", "first"))
        try await f.context.push()
        transport.fail("PATCH", with: .cutOff)
        try await f.local.update(todo("a", "second"))
        await #expect(throws: SyncError.self) { try await f.context.push() }
        transport.fail("PATCH", with: nil)
        try await change(f)
        return f
    }

    @Test func anEditWhoseReplyWasLostThenEditedAgainGoesWithoutAConflict() async throws {
        let f = try await editWithALostReply { try await $0.local.update(todo("a", "third")) }
        try await f.context.push()
        #expect(try f.context.operationErrors().isEmpty)
        #expect(try f.context.conflictLog().isEmpty)
        #expect(try await f.serverItems()["a"]?["text"] == "third")
    }

    @Test func anEditWhoseReplyWasLostThenDeletedGoesWithoutAConflict() async throws {
        let f = try await editWithALostReply { try await $0.local.delete(todo("a", "second")) }
        try await f.context.push()
        #expect(try f.context.operationErrors().isEmpty)
        #expect(try await f.serverItems()["a"]?["deleted"] == .bool(true))
    }
}
