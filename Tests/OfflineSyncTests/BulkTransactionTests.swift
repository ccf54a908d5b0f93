import Foundation
import GRDB
@testable import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// A local transaction that starts on an empty table (an import into a new list) loads it in
/// bulk, as a first pull does: the text-search index is built once when it commits. Searches
/// answer exactly, and the index is whole and kept row by row again afterwards.
@Suite struct BulkTransactionTests {
    static let rows = 230

    struct Device {
        let path: String
        let table: String
        let store: SQLiteSyncStore
        let context: SyncContext
        var local: SyncTable { context.table(table) }

        init() throws {
            path = try TempDir.make().appendingPathComponent("d.sqlite").path
            table = "items"
            var definition = BulkPullTests.definition(table)
            definition.indexes = [["complete", "text"]]
            store = try SQLiteSyncStore(path: path, tables: [definition])
            context = SyncContext(client: nil, dataSource: store)
        }

        /// The table's indexes as SQLite keeps them: names and the statements that made them.
        func indexes() throws -> [String] {
            let raw = try DatabaseQueue(path: path)
            defer { try? raw.close() }
            return try raw.read { db in
                try String.fetchAll(db, sql: "SELECT name || ': ' || ifnull(sql, '') FROM sqlite_master WHERE type = 'index' AND tbl_name = ? ORDER BY name",
                                    arguments: [table])
            }
        }

        /// Ids of the rows holding a phrase among those the index itself offers for it (the rows
        /// holding each of its trigrams), read past the store (which may scan instead): a row the
        /// index missed is not among them.
        func indexed(_ phrase: String) throws -> [String] {
            let raw = try DatabaseQueue(path: path)
            defer { try? raw.close() }
            let trigrams = TextSearchIndex.trigrams(of: phrase).map { "\"\($0)\"" }.joined(separator: " AND ")
            return try raw.read { db in
                try String.fetchAll(db, sql: """
                    SELECT t.id FROM "MS_Search_\(table)" s JOIN "\(table)" t ON t.rowid = s.rowid
                    WHERE "MS_Search_\(table)" MATCH ? AND instr(lower(t.text), lower(?)) > 0 ORDER BY t.id
                    """, arguments: [trigrams, phrase])
            }
        }
    }

    struct Refused: Error {}

    @Test func anImportIntoAnEmptyTableLeavesItsIndexWholeAndSearchExact() throws {
        let d = try Device()
        try d.local.transaction { writes in
            for i in 0..<Self.rows { try writes.insert(["id": .string("i\(i)"), "text": .string("item \(i)"), "complete": false]) }
        }
        for needle in ["item 12", "item 2", "m 19", "item 229"] {
            #expect(try BulkPullTests.search(d.store, d.table, needle) == BulkPullTests.expected(needle, rows: Self.rows), "\(needle)")
        }
        #expect(try d.indexed("item 229") == ["i229"])
        #expect(try d.indexed("item 12").count == BulkPullTests.expected("item 12", rows: Self.rows).count)
    }

    @Test func writesAfterTheImportAreIndexedRowByRow() async throws {
        let d = try Device()
        try d.local.transaction { writes in
            for i in 0..<Self.rows { try writes.insert(["id": .string("i\(i)"), "text": .string("item \(i)"), "complete": false]) }
        }
        try await d.local.insert(["id": .string("new"), "text": .string("freshly typed"), "complete": false])
        try await d.local.update(["id": .string("i7"), "text": .string("renamed seven"), "complete": false])
        #expect(try d.indexed("freshly typed") == ["new"])
        #expect(try d.indexed("renamed") == ["i7"])
        #expect(try BulkPullTests.search(d.store, d.table, "item 7") == BulkPullTests.expected("item 7", rows: Self.rows).filter { $0 != "i7" })
    }

    @Test func aFailedImportLeavesTheTableEmptyAndItsIndexKeptRowByRow() async throws {
        let d = try Device()
        #expect(throws: SyncError.self) {
            try d.local.transaction { writes in
                for i in 0..<10 { try writes.insert(["id": .string("i\(i)"), "text": .string("item \(i)"), "complete": false]) }
                throw Refused()
            }
        }
        #expect(try d.local.read(SyncQuery(table: d.table)).items.isEmpty)
        try await d.local.insert(["id": .string("later"), "text": .string("typed after the failure"), "complete": false])
        #expect(try d.indexed("after the failure") == ["later"])
        #expect(try BulkPullTests.search(d.store, d.table, "after the failure") == ["later"])
    }

    @Test func theTablesIndexesAreAllThereAfterAnImport() throws {
        let d = try Device()
        let before = try d.indexes()
        #expect(before.contains { $0.hasPrefix("items_complete_text:") })
        try d.local.transaction { writes in
            for i in 0..<Self.rows { try writes.insert(["id": .string("i\(i)"), "text": .string("item \(i)"), "complete": .bool(i % 2 == 0)]) }
        }
        #expect(try d.indexes() == before)
    }

    @Test func aFailedImportLeavesTheTablesIndexesAsTheyWere() throws {
        let d = try Device()
        let before = try d.indexes()
        #expect(throws: SyncError.self) {
            try d.local.transaction { writes in
                for i in 0..<10 { try writes.insert(["id": .string("i\(i)"), "text": .string("item \(i)"), "complete": false]) }
                throw Refused()
            }
        }
        #expect(try d.indexes() == before)
    }

    @Test func searchesInsideTheImportSeeItsOwnRows() throws {
        let d = try Device()
        let found = try d.local.transaction { writes in
            for i in 0..<20 { try writes.insert(["id": .string("i\(i)"), "text": .string("item \(i)"), "complete": false]) }
            return try writes.read(SyncQuery(table: d.table).filter(Field("text").contains("item 1"))).items.count
        }
        #expect(found == 11)
    }
}
