import Foundation
import GRDB
@testable import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// A local read puts rows that tie on its order in id order, so pages never overlap; a read that
/// asks for ties in any order (`tiesInAnyOrder()`) skips that sort and still comes in its order.
@Suite struct TieOrderTests {
    static let definition = SyncTableDefinition(name: "items", columns: ["group": .text, "rank": .number], indexes: [["group", "rank"]])

    @Test func aReadBreaksTiesByIdUnlessAskedNotTo() throws {
        let query = SyncQuery(table: "items").order(by: "group")
        #expect(try LocalSelect(query: query, definition: Self.definition).rowsSQL.contains(#"ORDER BY "group" ASC NULLS FIRST, "id""#))
        let untied = try LocalSelect(query: query.tiesInAnyOrder(), definition: Self.definition).rowsSQL
        #expect(untied.contains(#"ORDER BY "group" ASC NULLS FIRST LIMIT"#))
    }

    /// Ranks run against ids, so within a group the index walks the rows against id order.
    @Test func tiesInAnyOrderComeInTheAskedOrderEachRowOnce() throws {
        let store = try SQLiteSyncStore(path: TempDir.make().appendingPathComponent("ties.sqlite").path, tables: [Self.definition])
        let rows: [JSONObject] = (0..<60).map { n in ["id": .string(String(format: "r%02d", n)), "group": .string("g\(n % 3)"), "rank": .number(Double(60 - n))] }
        try store.write { (session: any SyncStoreSession) in try session.upsert(rows, in: "items", space: nil) }
        let query = SyncQuery(table: "items").order(by: "group").select(["id", "group"])
        let tied = try store.read { try $0.values(query) }
        let untied = try store.read { try $0.values(query.tiesInAnyOrder()) }
        let ids = { (rows: [[JSONValue]]) in rows.map { $0[0].stringValue ?? "" } }
        let groups = untied.map { $0[1].stringValue ?? "" }
        #expect(groups == groups.sorted())
        #expect(ids(untied).sorted() == ids(tied).sorted() && untied.count == 60)
        // The default read: by group, then by id within it.
        let byGroupThenId = rows.sorted { ($0["group"]!.stringValue!, $0["id"]!.stringValue!) < ($1["group"]!.stringValue!, $1["id"]!.stringValue!) }
        #expect(ids(tied) == byGroupThenId.map { $0["id"]!.stringValue! })
    }
}
