import Foundation
import GRDB
import ServerTestSupport
@testable import OfflineSync
import TableProtocol
import Testing

/// An equality on a ranked column is read from its sort column (which the order indexes hold),
/// and finds the rows the column's own equality finds.
@Suite struct RankedEqualityTests {
    static let definition = SyncTableDefinition(
        name: "Tasks", columns: ["priority": .text, "text": .text], sortRules: ["priority": .ranked(["high", "medium", "low"])],
        orderIndexes: [["priority", "text"]])

    func sql(_ predicate: QueryPredicate) throws -> LocalSelect {
        try LocalSelect(query: SyncQuery(table: "Tasks").filter(predicate), definition: Self.definition)
    }

    @Test func anEqualityToARankedValueTestsTheSortColumn() throws {
        let select = try sql(Field("priority") == "medium" && Field("text") == "x")
        #expect(select.whereClause.contains("\"__sort_priority_"))
        #expect(!select.whereClause.contains("\"priority\""))
        #expect(select.rowsBinds.contains(1.0.databaseValue))
    }

    @Test(arguments: [Field("priority") == "urgent", !(Field("priority") == "high"), Field("priority") != "high"])
    func aValueWithoutARankOrATestUnderNotStaysOnTheColumn(_ predicate: QueryPredicate) throws {
        #expect(try sql(predicate).whereClause.contains("\"priority\""))
    }

    @Test func theSortColumnFindsWhatTheColumnFinds() async throws {
        let store = try SQLiteSyncStore(path: try TempDir.make().appendingPathComponent("s.sqlite").path, tables: [Self.definition])
        let context = SyncContext(client: nil, dataSource: store)
        let table = context.table("Tasks")
        let values: [JSONValue] = [.string("high"), .string("medium"), .string("low"), .string("urgent"), .string("HIGH"), .null]
        try table.transaction { writes in
            for (n, value) in (values + values).enumerated() { _ = try writes.insert(["id": .string("t\(n)"), "priority": value, "text": .string("t\(n)")]) }
        }
        for value in ["high", "medium", "low", "urgent"] {
            let found = try table.read(table.query.filter(Field("priority") == .string(value) || Field("text") == "t5").order(by: "id")).items
            let expected = (values + values).enumerated().filter { $0.element == .string(value) || $0.offset == 5 }.map { "t\($0.offset)" }.sorted()
            #expect(found.compactMap { $0["id"]?.stringValue } == expected, "priority = \(value)")
        }
    }
}
