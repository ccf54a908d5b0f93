import Foundation
import GRDB
@testable import OfflineSync
import ServerTestSupport
import Testing

/// An open migrates the app's tables only when they or the store's schema changed since the last
/// migration (`StoreSchemaRecord`); otherwise it trusts what that migration made.
@Suite struct StoreSchemaRecordTests {
    static let rich = SyncTableDefinition(
        name: "rich", columns: ["text": .text, "tags": .text, "due": .text, "done": .boolean, "order": .text, "level": .text, "size": .number],
        indexes: [["done", "due"], ["text"]], searchable: ["text"], wordSearchable: ["tags"], humanSorted: ["text"],
        sortRules: ["order": .nullsLast, "level": .ranked(["high", "low"])], orderIndexes: [["done", "order"], ["level"]])

    static func path() throws -> String { try TempDir.make().appendingPathComponent("store.sqlite").path }

    @Test func aStoreOpenedAgainWithTheSameTablesIsNotMigratedAgain() throws {
        let path = try Self.path()
        #expect(try SQLiteSyncStore(path: path, tables: [Self.rich]).migratedAtOpen)
        let again = try SQLiteSyncStore(path: path, tables: [Self.rich])
        #expect(!again.migratedAtOpen)
        #expect(again.searchIndexes.isCurrent("rich"))
    }

    @Test func aChangedDefinitionIsMigratedOnTheNextOpen() async throws {
        let path = try Self.path()
        _ = try SQLiteSyncStore(path: path, tables: [Self.rich])
        var wider = Self.rich
        wider.columns["note"] = .text
        let store = try SQLiteSyncStore(path: path, tables: [wider])
        #expect(store.migratedAtOpen)
        let table = SyncContext(client: nil, dataSource: store).table("rich")
        try await table.insert(["id": "a", "note": "kept"])
        #expect(try table.read(id: "a")?["note"] == "kept")
    }

    /// Each part of a definition the migrator reads, changed alone.
    static let changes: [String: @Sendable (inout SyncTableDefinition) -> Void] = [
        "a column's type": { $0.columns["size"] = .text },
        "an index": { $0.indexes.append(["due"]) },
        "an order index": { $0.orderIndexes.append(["order"]) },
        "a human-sorted column": { $0.humanSorted = [] },
        "a sort rule": { $0.sortRules["level"] = .ranked(["low", "high"]) },
        "a searchable column": { $0.searchable = [] },
        "a word-searchable column": { $0.wordSearchable = ["text"] },
    ]

    @Test(arguments: changes.keys.sorted())
    func eachPartOfADefinitionChangedAloneIsMigratedOnTheNextOpen(_ change: String) throws {
        let path = try Self.path()
        _ = try SQLiteSyncStore(path: path, tables: [Self.rich])
        var changed = Self.rich
        Self.changes[change]!(&changed)
        #expect(try SQLiteSyncStore(path: path, tables: [changed]).migratedAtOpen)
    }

    @Test func anIndexDroppedByHandIsMadeAgainOnTheNextOpen() throws {
        let path = try Self.path()
        _ = try SQLiteSyncStore(path: path, tables: [Self.rich])
        let indexes = #"SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'rich' AND sql IS NOT NULL ORDER BY name"#
        let made = try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: indexes) }
        try DatabaseQueue(path: path).write { try $0.execute(sql: #"DROP INDEX "rich_done_due""#) }
        #expect(try SQLiteSyncStore(path: path, tables: [Self.rich]).migratedAtOpen)
        #expect(try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: indexes) } == made)
    }

    /// A process killed in a bulk load leaves the search index's triggers dropped (`suspend`).
    @Test func searchTriggersABulkLoadLeftDroppedAreMadeAgainOnTheNextOpen() async throws {
        let path = try Self.path()
        _ = try SQLiteSyncStore(path: path, tables: [Self.rich])
        let triggers = "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'rich'"
        let made = try await DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: triggers) }
        try await DatabaseQueue(path: path).write { try TextSearchIndex.suspend($0, table: Self.rich) }
        #expect(try await DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: triggers) } != made)
        let store = try SQLiteSyncStore(path: path, tables: [Self.rich])
        #expect(store.migratedAtOpen)
        #expect(try await DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: triggers) } == made)
        let table = SyncContext(client: nil, dataSource: store).table("rich")
        try await table.insert(["id": "a", "text": "pack the tent"])
        #expect(try table.read(table.query.filter(Field("text").contains("tent"))).items.count == 1)
    }

    /// What the migrator makes of one table, as a digest: when it changes, stores recorded by the
    /// code before must be migrated again, so `StoreSchemaRecord.revision` is bumped with it.
    @Test func whatTheMigratorMakesIsWhatItsRevisionRecorded() throws {
        let path = try Self.path()
        _ = try SQLiteSyncStore(path: path, tables: [Self.rich])
        let made = try DatabaseQueue(path: path).read { try StoreSchemaRecord.schema($0) }
            // The table's own objects; not the search indexes' shadow tables, which SQLite's version names.
            .split(separator: "\n").filter { $0.contains("rich") && (!$0.hasPrefix("table MS_") || $0.contains("VIRTUAL TABLE")) }.joined(separator: "\n")
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in made.utf8 { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
        #expect([StoreSchemaRecord.revision: String(digest, radix: 16)] == [1: "92074597858f0fe3"],
                "StoreMigrator makes another schema: bump StoreSchemaRecord.revision and record the new digest here\n\(made)")
    }
}
