import Foundation
import GRDB
@testable import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// A local row is keyed by its space and its id: ids are unique per namespace on the server, so
/// two namespaces a device syncs may hold one id, and the device keeps, shows and sends both.
@Suite struct ItemKeyTests {
    /// ann holds `milk` in her own namespace; bob adds another `milk` to the space they share.
    static func twoMilks() async throws -> SpaceDevices {
        let d = try await SpaceDevices.make()
        try await d.ann.table(SpaceDevices.table).insert(["id": "milk", "text": "ann's own milk"])
        try await d.ann.push()
        try await d.bob.table(SpaceDevices.table).inSpace(d.space).insert(["id": "milk", "text": "the shared milk"])
        try await d.bob.push()
        for space in [nil, d.space] as [String?] { try await d.ann.table(SpaceDevices.table).inSpace(space).pull(queryId: "g") }
        return d
    }

    @Test func twoNamespacesHoldingOneIdBothStay() async throws {
        let d = try await Self.twoMilks()
        let rows = try d.ann.table(SpaceDevices.table).rows(id: "milk")
        #expect(rows.map { $0["text"] } == ["ann's own milk", "the shared milk"])
        #expect(rows.map { SharedSpace.of($0) } == [nil, d.space])
        #expect(try SpaceDevices.texts(d.ann) == ["ann's own milk", "the shared milk"])
    }

    @Test func aPullOfOneNamespaceLeavesTheOthersRowOfTheSameIdAlone() async throws {
        let d = try await Self.twoMilks()
        try await d.bob.table(SpaceDevices.table).update(["id": "milk", "text": "oat milk"])
        try await d.bob.push()
        try await d.ann.table(SpaceDevices.table).inSpace(d.space).pull(queryId: "g")
        #expect(try d.ann.table(SpaceDevices.table).read(id: "milk", space: nil)?["text"] == "ann's own milk")
        #expect(try d.ann.table(SpaceDevices.table).read(id: "milk", space: d.space)?["text"] == "oat milk")
    }

    @Test func onlyTheCopyWhoseChangeWaitsIsPending() async throws {
        let d = try await Self.twoMilks()
        try await d.ann.table(SpaceDevices.table).inSpace(d.space).update(["id": "milk", "text": "shared oat milk"])
        #expect(try d.ann.pendingItemKeys(table: SpaceDevices.table) == [ItemKey(space: d.space, id: "milk")])
        var pending: [Set<ItemKey>] = []
        try d.ann.table(SpaceDevices.table).forEachChunk(d.ann.table(SpaceDevices.table).query) { _, keys in pending.append(keys) }
        #expect(pending == [[ItemKey(space: d.space, id: "MILK")]])
    }

    @Test func anEditOfOneGoesToItsNamespaceOnly() async throws {
        let d = try await Self.twoMilks()
        let table = d.ann.table(SpaceDevices.table)
        var shared = try #require(try table.read(id: "milk", space: d.space))
        shared["text"] = "two litres"
        try await table.update(shared)
        try await d.ann.push()
        try await d.bob.table(SpaceDevices.table).inSpace(d.space).pull(queryId: "g")
        #expect(try d.bob.table(SpaceDevices.table).read(id: "milk")?["text"] == "two litres")
        let annsPhone = try await SpaceDevices.device(d.server, "ann")
        try await annsPhone.table(SpaceDevices.table).pull(queryId: "g")
        #expect(try annsPhone.table(SpaceDevices.table).read(id: "milk", space: nil)?["text"] == "ann's own milk")
    }

    @Test func aDeleteOfOneLeavesTheOther() async throws {
        let d = try await Self.twoMilks()
        let table = d.ann.table(SpaceDevices.table)
        try await table.delete(try #require(try table.read(id: "milk", space: nil)))
        try await d.ann.push()
        try await table.inSpace(d.space).pull(queryId: "g")
        #expect(try table.rows(id: "milk").map { SharedSpace.of($0) } == [d.space])
    }

    @Test func anUpdateNamingAnIdTwoSpacesHoldWithoutItsSpaceIsRefusedNotGuessed() async throws {
        let d = try await Self.twoMilks()
        // The table value of a third space holds neither row: which milk is meant cannot be told.
        let elsewhere = d.ann.table(SpaceDevices.table).inSpace("another-space")
        await #expect(throws: SyncError.self) { try await elsewhere.update(["id": "milk", "text": "which one?"]) }
        #expect(try SpaceDevices.texts(d.ann) == ["ann's own milk", "the shared milk"])
        // Its own space's table value means its own row.
        try await d.ann.table(SpaceDevices.table).update(["id": "milk", "text": "mine"])
        #expect(try d.ann.table(SpaceDevices.table).read(id: "milk", space: nil)?["text"] == "mine")
        #expect(try d.ann.table(SpaceDevices.table).read(id: "milk", space: d.space)?["text"] == "the shared milk")
    }

    @Test func undoTakesBackTheEditOfTheRowItWasMadeOn() async throws {
        let d = try await Self.twoMilks()
        let table = d.ann.table(SpaceDevices.table)
        var shared = try #require(try table.read(id: "milk", space: d.space))
        shared["text"] = "two litres"
        try await table.update(shared)
        try d.ann.undo()
        #expect(try table.read(id: "milk", space: d.space)?["text"] == "the shared milk")
        #expect(try table.read(id: "milk", space: nil)?["text"] == "ann's own milk")
        #expect(d.ann.pendingOperationsCount == 0)
    }

    /// A store from before the key: the table keyed by id, the queue without spaces.
    @Test func aStoreKeyedByIdAloneIsRekeyedWithEachQueuedChangeInItsRowsSpace() async throws {
        let path = try TempDir.make().appendingPathComponent("old.sqlite").path
        let definition = SyncTableDefinition(name: "todos", columns: ["text": .text], searchable: ["text"])
        let context = SyncContext(client: nil, dataSource: try SQLiteSyncStore(path: path, tables: [definition]))
        try await context.table("todos").insert(["id": "mine", "text": "diary"])
        try await context.table("todos").inSpace("s1").insert(["id": "ours", "text": "bread"])
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: """
                DROP INDEX "todos__key";
                CREATE TABLE "old" ("id" TEXT PRIMARY KEY NOT NULL COLLATE NOCASE, "version" TEXT, "createdAt" TEXT, "updatedAt" TEXT,
                    "deleted" BOOLEAN, "updatedBy" TEXT, "__space" TEXT, "text" TEXT);
                INSERT INTO "old" SELECT "id", "version", "createdAt", "updatedAt", "deleted", "updatedBy", "__space", "text" FROM "todos";
                DROP TABLE "todos";
                ALTER TABLE "old" RENAME TO "todos";
                UPDATE "MS_TableOperations" SET "space" = '';
                UPDATE "MS_UndoJournal" SET "space" = '';
                """)
        }
        let reopened = try SQLiteSyncStore(path: path, tables: [definition])
        let queued = try reopened.read { session in [try session.operation(after: 0), try session.operation(after: 1)] }
        #expect(queued.map { $0?.space } == [nil, "s1"])
        let again = SyncContext(client: nil, dataSource: reopened)
        #expect(try again.table("todos").read(id: "ours", space: "s1")?["text"] == "bread")
        #expect(try again.table("todos").read(again.table("todos").query.filter(Field("text").contains("rea"))).items.count == 1)
        try await again.table("todos").inSpace("s2").insert(["id": "mine", "text": "a second mine"])
        #expect(try again.table("todos").rows(id: "mine").count == 2)
        #expect(try again.undo()?.changes.map(\.space) == ["s2"])
    }
}
