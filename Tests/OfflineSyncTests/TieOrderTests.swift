import Foundation
@testable import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// A local read puts rows that tie on its order in id order, so pages never overlap; a read that
/// asks for ties in any order (`tiesInAnyOrder()`) skips that sort and walks the index as it is.
@Suite struct TieOrderTests {
    static let definition = SyncTableDefinition(name: "items", columns: ["group": .text, "rank": .number], indexes: [["group", "rank"]])

    /// 60 rows in three groups; within a group, rank runs against id, so the index on
    /// (group, rank) holds each group's rows in descending id order.
    func store() throws -> (SQLiteSyncStore, [JSONObject]) {
        let store = try SQLiteSyncStore(path: TempDir.make().appendingPathComponent("ties.sqlite").path, tables: [Self.definition])
        let rows: [JSONObject] = (0..<60).map { n in ["id": .string(String(format: "r%02d", n)), "group": .string("g\(n % 3)"), "rank": .number(Double(60 - n))] }
        try store.write { (session: any SyncStoreSession) in try session.upsert(rows, in: "items", space: nil) }
        return (store, rows)
    }

    func ids(_ rows: [[JSONValue]]) -> [String] { rows.map { $0[0].stringValue ?? "" } }

    static let byGroup = SyncQuery(table: "items").order(by: "group").select(["id", "group"])

    @Test func aReadBreaksTiesById() throws {
        let (store, rows) = try store()
        let read = try store.read { try $0.values(Self.byGroup) }
        let byGroupThenId = rows.sorted { ($0["group"]!.stringValue!, $0["id"]!.stringValue!) < ($1["group"]!.stringValue!, $1["id"]!.stringValue!) }
        #expect(ids(read) == byGroupThenId.map { $0["id"]!.stringValue! })
    }

    /// Each group in the index's order (descending ids here), so no sort by id ran.
    @Test func tiesInAnyOrderComeInTheIndexsOrderWithinTheAskedOne() throws {
        let (store, rows) = try store()
        let read = try store.read { try $0.values(Self.byGroup.tiesInAnyOrder()) }
        let byGroupThenRank = rows.sorted { ($0["group"]!.stringValue!, $0["rank"]!.numberValue!) < ($1["group"]!.stringValue!, $1["rank"]!.numberValue!) }
        #expect(ids(read) == byGroupThenRank.map { $0["id"]!.stringValue! })
    }

    @Test func aReadWithNoOrderAndTiesInAnyOrderIsValidSQL() throws {
        let (store, _) = try store()
        let read = try store.read { try $0.values(SyncQuery(table: "items").select(["id", "group"]).tiesInAnyOrder()) }
        #expect(read.count == 60)
    }
}
