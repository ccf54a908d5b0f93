import Foundation
import OfflineSync
import ServerTestSupport
import Synchronization
import TableProtocol
import Testing

/// Push against a real todo-server: each kind, server items kept, conflicts, aborts.
@Suite struct PushTests {
    @Test func pushedInsertReachesTheServerAndTheLocalRowGetsItsVersion() async throws {
        let f = try await SyncFixture.make()
        try await f.local.insert(todo("a", "milk"))
        try await f.context.push()
        let server = try await f.serverItems()
        #expect(server["a"]?["text"] == "milk")
        #expect(f.context.pendingOperationsCount == 0)
        #expect(try f.local.read(id: "a")?["version"] == server["a"]?["version"])
    }

    @Test func pushedUpdateChangesTheServerItem() async throws {
        let f = try await SyncFixture.make()
        try await f.local.insert(todo("a", "milk"))
        try await f.context.push()
        var row = try #require(try f.local.read(id: "a"))
        row["text"] = "oat milk"
        try await f.local.update(row)
        try await f.context.push()
        #expect(try await f.serverItems()["a"]?["text"] == "oat milk")
        #expect(f.context.pendingOperationsCount == 0)
    }

    @Test func pushedDeleteSoftDeletesOnTheServer() async throws {
        let f = try await SyncFixture.make()
        try await f.local.insert(todo("a", "milk"))
        try await f.context.push()
        try await f.local.delete(["id": "a"])
        try await f.context.push()
        #expect(try await f.serverItems()["a"]?["deleted"] == true)
    }

    @Test func deleteOfAnItemTheServerNoLongerHasSucceeds() async throws {
        let f = try await SyncFixture.make()
        try await f.local.insert(todo("a", "milk"))
        try await f.context.push()
        let row = try #require(try f.local.read(id: "a"))
        _ = try await f.remote.delete(row)
        try await f.local.delete(["id": "a"])
        try await f.context.push()
        #expect(f.context.pendingOperationsCount == 0)
    }

    @Test func operationsRunInQueueOrderAcrossSeveralItems() async throws {
        let f = try await SyncFixture.make()
        for i in 0..<5 { try await f.local.insert(todo("i\(i)", "item \(i)")) }
        try await f.context.push()
        let stamps = try await f.serverItems().sorted { $0.key < $1.key }.map { $0.value["updatedAt"]!.stringValue! }
        #expect(stamps == stamps.sorted())
    }

    @Test func conflictingUpdateReachesTheDelegateWithTheServerItem() async throws {
        let delegate = ConflictDelegate(.fail)
        let f = try await SyncFixture.make(delegate: delegate)
        try await f.editedOnBothSides()
        await #expect(throws: SyncError.self) { try await f.context.push() }
        #expect(delegate.conflicts.count == 1)
        #expect(delegate.conflicts.first?.server["text"] == "server edit")
        #expect(delegate.conflicts.first?.client["text"] == "client edit")
        let errors = try f.context.operationErrors()
        #expect(errors.count == 1)
        #expect(errors.first?.statusCode == 412)
        #expect(errors.first?.serverItem?["text"] == "server edit")
        #expect(f.context.pendingOperationsCount == 1)
    }

    @Test func aConflictWithNoDelegateFailsThePushKeepingTheOperationAndTheServerItem() async throws {
        let f = try await SyncFixture.make()
        try await f.editedOnBothSides()
        let error = await #expect(throws: SyncError.self) { try await f.context.push() }
        #expect(error?.code == .pushCompletedWithErrors)
        let errors = try f.context.operationErrors()
        #expect(errors.count == 1)
        #expect(errors.first?.statusCode == 412)
        #expect(errors.first?.serverItem?["text"] == "server edit")
        #expect(f.context.pendingOperationsCount == 1)
        #expect(try f.local.read(id: errors.first!.itemId)?["text"] == "client edit")
        #expect(try await f.serverItems()[errors.first!.itemId]?["text"] == "server edit")
    }

    @Test func useClientRetriesWithTheServerVersionAndWins() async throws {
        let f = try await SyncFixture.make(delegate: ConflictDelegate(.useClient))
        try await f.editedOnBothSides()
        try await f.context.push()
        #expect(try await f.serverItems()["a"]?["text"] == "client edit")
        #expect(f.context.pendingOperationsCount == 0)
    }

    @Test func useServerKeepsTheServerItemLocallyAndDropsTheOperation() async throws {
        let f = try await SyncFixture.make(delegate: ConflictDelegate(.useServer))
        try await f.editedOnBothSides()
        try await f.context.push()
        #expect(try f.local.read(id: "a")?["text"] == "server edit")
        #expect(try await f.serverItems()["a"]?["text"] == "server edit")
        #expect(f.context.pendingOperationsCount == 0)
    }

    @Test func cancelStopsThePushAndKeepsTheOperationQueued() async throws {
        let f = try await SyncFixture.make(delegate: ConflictDelegate(.cancel))
        try await f.editedOnBothSides()
        try await f.local.insert(todo("b", "after the conflict"))
        do {
            try await f.context.push()
            Issue.record("push should be cancelled")
        } catch let error as SyncError {
            #expect(error.code == .pushAbortedCancelled)
        }
        #expect(f.context.pendingOperationsCount == 2)
        #expect(try f.local.read(id: "a")?["text"] == "client edit")
        #expect(try await f.serverItems()["b"] == nil)
    }

    @Test func duplicateInsertWithDifferentContentIsAConflict() async throws {
        let delegate = ConflictDelegate(.fail)
        let f = try await SyncFixture.make(delegate: delegate)
        _ = try await f.remote.insert(todo("a", "server's"))
        try await f.local.insert(todo("a", "client's"))
        await #expect(throws: SyncError.self) { try await f.context.push() }
        #expect(delegate.conflicts.first?.server["text"] == "server's")
        #expect(try f.context.operationErrors().first?.statusCode == 409)
    }

    @Test func retriedInsertTheServerAlreadyHasIsNotAConflict() async throws {
        let f = try await SyncFixture.make()
        _ = try await f.remote.insert(todo("a", "same"))
        try await f.local.insert(todo("a", "same"))
        try await f.context.push()
        #expect(f.context.pendingOperationsCount == 0)
        #expect(try f.context.operationErrors().isEmpty)
        #expect(try f.local.read(id: "a")?["version"] != .null)
    }

    @Test func resolvingWithCancelAndUpdateKeepsTheGivenItem() async throws {
        let delegate = ConflictDelegate(.fail)
        let f = try await SyncFixture.make(delegate: delegate)
        let serverItem = try await f.editedOnBothSides()
        delegate.resolveInPushCompleted = .cancelOperationAndUpdateItem(serverItem)
        try await f.context.push()
        #expect(try f.local.read(id: "a")?["text"] == "server edit")
        #expect(f.context.pendingOperationsCount == 0)
        #expect(try f.context.operationErrors().isEmpty)
    }

    @Test func resolvingWithDiscardRemovesOperationAndItem() async throws {
        let f = try await SyncFixture.make(delegate: ConflictDelegate(.fail))
        try await f.editedOnBothSides()
        await #expect(throws: SyncError.self) { try await f.context.push() }
        let error = try #require(try f.context.operationErrors().first)
        try f.context.resolve(error, .cancelOperationAndDiscardItem)
        #expect(try f.local.read(id: "a") == nil)
        #expect(f.context.pendingOperationsCount == 0)
    }

    @Test func resolvingWithKeepAndUpdateRetriesOnTheNextPush() async throws {
        let f = try await SyncFixture.make(delegate: ConflictDelegate(.fail))
        try await f.editedOnBothSides()
        await #expect(throws: SyncError.self) { try await f.context.push() }
        let error = try #require(try f.context.operationErrors().first)
        var merged = todo("a", "merged")
        merged["version"] = error.serverItem!["version"]
        try f.context.resolve(error, .keepOperationAndUpdateItem(merged))
        try await f.context.push()
        #expect(try await f.serverItems()["a"]?["text"] == "merged")
        #expect(f.context.pendingOperationsCount == 0)
    }

    @Test func resolvingWithChangeOperationTypeTurnsAnUpdateIntoAnInsert() async throws {
        let f = try await SyncFixture.make(delegate: ConflictDelegate(.fail))
        try await f.local.update(todo("ghost", "only local"))
        await #expect(throws: SyncError.self) { try await f.context.push() }
        let error = try #require(try f.context.operationErrors().first)
        #expect(error.statusCode == 404)
        try f.context.resolve(error, .changeOperationType(.insert, todo("ghost", "only local")))
        try await f.context.push()
        #expect(try await f.serverItems()["ghost"]?["text"] == "only local")
    }

    @Test func pushAbortsWhenTheServerIsDownAndSucceedsLater() async throws {
        let dir = try TempDir.make()
        let database = dir.appendingPathComponent("s.sqlite").path
        let server = try await ServerProcess.start(arguments: ["--database", database])
        let f = try await SyncFixture.make(server: server)
        server.stop()
        try await f.local.insert(todo("a", "offline one"))
        try await f.local.insert(todo("b", "offline two"))
        do {
            try await f.context.push()
            Issue.record("push should abort")
        } catch let error as SyncError {
            #expect(error.code == .pushAbortedNetwork)
        }
        #expect(f.context.pendingOperationsCount == 2)
        let restarted = try await ServerProcess.start(arguments: ["--database", database])
        defer { restarted.stop() }
        let online = try f.reopened(serverURL: restarted.baseURL)
        try await online.context.push()
        #expect(online.context.pendingOperationsCount == 0)
        #expect(try await online.serverItems().keys.sorted() == ["a", "b"])
    }

    @Test func versionIsCopiedWhenANewerChangeIsQueuedDuringThePush() async throws {
        let gate = GateDelegate()
        let f = try await SyncFixture.make(delegate: gate)
        try await f.local.insert(todo("a", "v1"))
        gate.beforeExecute = { _ = try? await f.local.update(todo("a", "v2")) }
        try await f.context.push()
        // The update made while the insert was in flight was queued on its own and pushed too.
        #expect(try await f.serverItems()["a"]?["text"] == "v2")
        #expect(f.context.pendingOperationsCount == 0)
        #expect(try f.context.operationErrors().isEmpty)
    }
}

/// Runs a hook just before each operation executes.
final class GateDelegate: SyncContextDelegate, Sendable {
    private let hook = Mutex<(@Sendable () async -> Void)?>(nil)

    /// Runs once, just before the next operation executes.
    var beforeExecute: (@Sendable () async -> Void)? {
        get { hook.withLock { $0 } }
        set { hook.withLock { $0 = newValue } }
    }

    func tableOperation(_ operation: TableOperation) async throws -> JSONObject? {
        await hook.withLock { $0.take() }?()
        return try await operation.execute()
    }
}

extension SyncFixture {
    /// Item "a" is pushed as "original", then changed to "server edit" on the server and to
    /// "client edit" here: the next push of "a" conflicts. Answers the server's item.
    @discardableResult
    func editedOnBothSides() async throws -> JSONObject {
        try await local.insert(todo("a", "original"))
        try await context.push()
        let serverItem = try await remote.update(["id": "a", "text": "server edit"])
        try await local.update(["id": "a", "text": "client edit"])
        return serverItem
    }
}
