@testable import CalDAV
import Foundation
import ServerTestSupport
import SyncServer
import TableProtocol
import Testing
import TodoModel

/// The server keeps a phone's refused edit for `LostEditRetention.days`, for the devices that
/// have not synced it yet; older ones go when the namespace keeps a new one.
@Suite struct LostEditRetentionTests {
    private func tables() async throws -> TableService {
        let database = try SQLiteDatabase(path: try TempDir.make().appendingPathComponent("s.sqlite").path)
        let tables = TableService(database: database, fixedSchema: false, limits: QueryLimits(pageSize: 50, maxTop: 1000), schemaCacheTTL: .infinity)
        try await tables.bootstrap()
        return tables
    }

    private func keep(_ text: String, in tables: TableService) async throws -> StoredItem {
        let edit = LostEdit(itemId: UUID().uuidString, fields: ["text"], lost: ["text": .string(text)], text: text, sentBy: "DAVx5", at: Date())
        return try await tables.insert(table: LostEdit.tableName, body: edit.columns, owner: "ann")
    }

    @Test func aLostEditKeptLongerThanTheRetentionIsDeletedAndALaterOneStays() async throws {
        let tables = try await tables()
        let old = try await keep("Oat milk", in: tables)
        let newer = try await keep("Rye bread", in: tables)
        let oldAt = try #require(old.properties["createdAt"]?.stringValue.flatMap(SyncDateFormat.date(from:)))
        try await LostEditRetention(tables: tables, namespace: "ann").prune(now: oldAt.addingTimeInterval(Double(LostEditRetention.days) * 86_400 + 0.001))
        let live = try await TableRows(tables: tables, table: LostEdit.tableName, owner: "ann").all(filter: nil)
        #expect(live.compactMap { $0["id"]?.stringValue } == [newer.id])
    }

    @Test func anotherNamespacesLostEditsAreLeftAlone() async throws {
        let tables = try await tables()
        let edit = LostEdit(itemId: "x", fields: ["text"], lost: ["text": .string("Tea")], text: "Tea", sentBy: "DAVx5", at: Date())
        _ = try await tables.insert(table: LostEdit.tableName, body: edit.columns, owner: "bob")
        try await LostEditRetention(tables: tables, namespace: "ann").prune(now: Date().addingTimeInterval(365 * 86_400))
        #expect(try await TableRows(tables: tables, table: LostEdit.tableName, owner: "bob").all(filter: nil).count == 1)
    }
}
