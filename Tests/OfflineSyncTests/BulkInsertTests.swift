import Foundation
import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// `SyncTableTransaction.insert(contentsOf:)`: many inserts that read what they need for all of
/// them at once, and end exactly as the same inserts one at a time would.
@Suite struct BulkInsertTests {
    let table = "items"
    let context: SyncContext
    var local: SyncTable { context.table(table) }

    init() throws {
        let path = try TempDir.make().appendingPathComponent("d.sqlite").path
        context = SyncContext(client: nil, dataSource: try SQLiteSyncStore(path: path, tables: [BulkPullTests.definition(table)]))
    }

    func item(_ id: String) -> JSONObject { ["id": .string(id), "text": .string("item \(id)"), "complete": false] }

    @Test func everyItemIsStoredAndQueuedForPush() throws {
        let saved = try local.transaction { writes in try writes.insert(contentsOf: ["a", "b", "c"].map(item)) }
        #expect(saved.compactMap { $0["id"]?.stringValue } == ["a", "b", "c"])
        #expect(try local.read(id: "b")?["text"] == .string("item b"))
        #expect(try context.pendingItemIds(table: table) == ["a", "b", "c"])
    }

    @Test func itemsWithoutAnIdGetOne() throws {
        let saved = try local.transaction { writes in try writes.insert(contentsOf: [["text": .string("no id")]]) }
        let id = try #require(saved.first?["id"]?.stringValue)
        #expect(UUID(uuidString: id) != nil)
        #expect(try local.read(id: id)?["text"] == .string("no id"))
    }

    @Test func anIdAlreadyStoredRefusesTheWholeTransaction() async throws {
        try await local.insert(item("b"))
        #expect(throws: SyncError.self) { try local.transaction { writes in try writes.insert(contentsOf: ["a", "B"].map(item)) } }
        #expect(try local.read(id: "a") == nil)
        #expect(try context.pendingItemIds(table: table) == ["b"])
    }

    @Test func anIdTwiceInOneCallIsRefused() throws {
        #expect(throws: SyncError.self) { try local.transaction { writes in try writes.insert(contentsOf: ["a", "A"].map(item)) } }
        #expect(try local.read(SyncQuery(table: table)).items.isEmpty)
    }

    @Test func skippingStoredLeavesOutIdsStoredOrGivenBeforeAndAnswersTheRest() async throws {
        try await local.insert(["id": "b", "text": "stored", "complete": false])
        let saved = try local.transaction { writes in try writes.insert(contentsOf: ["a", "B", "c", "A"].map(item), skippingStored: true) }
        #expect(saved.compactMap { $0["id"]?.stringValue } == ["a", "c"])
        #expect(try local.read(id: "b")?["text"] == "stored")
        #expect(try local.read(id: "a")?["text"] == "item a")
        #expect(try context.pendingItemIds(table: table) == ["a", "b", "c"])
    }

    @Test func skippingStoredStillRefusesAnIdWhoseDeleteIsQueued() async throws {
        try await local.update(item("x"))
        try await local.delete(item("x"))
        #expect(throws: SyncError.self) { try local.transaction { writes in try writes.insert(contentsOf: [item("x")], skippingStored: true) } }
    }

    @Test func anItemDeletedButNotYetPushedIsRefusedAsASingleInsertIs() async throws {
        // An update of an absent id stores it with an update queued; the delete then leaves a
        // queued delete and no row: only the queue knows the id.
        try await local.update(item("x"))
        try await local.delete(item("x"))
        #expect(throws: SyncError.self) { try local.transaction { writes in try writes.insert(item("x")) } }
        #expect(throws: SyncError.self) { try local.transaction { writes in try writes.insert(contentsOf: [item("x")]) } }
        #expect(try local.read(id: "x") == nil)
    }

    @Test func undoTakesTheWholeCallBackAsOneStep() throws {
        try local.transaction { writes in try writes.insert(contentsOf: ["a", "b", "c"].map(item)) }
        #expect(try context.undo() != nil)
        #expect(try local.read(SyncQuery(table: table)).items.isEmpty)
        #expect(context.pendingOperationsCount == 0)
        #expect(try context.redo() != nil)
        #expect(try local.read(SyncQuery(table: table)).items.count == 3)
    }

    @Test func itemsGoToTheSpaceTheyAreInsertedIn() throws {
        try local.transaction { writes in
            try writes.insert(contentsOf: [item("mine")])
            try writes.insert(contentsOf: [item("ours")], inSpace: "space-1")
        }
        #expect(SharedSpace.of(try #require(try local.read(id: "mine"))) == nil)
        #expect(SharedSpace.of(try #require(try local.read(id: "ours"))) == "space-1")
    }
}
