import Foundation
import GRDB
import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// gains the rule's hidden column in place.
@Suite struct SortRuleTests {
    func table(path: String? = nil, rules: [String: SortRule]) throws -> SyncTable {
        let definition = SyncTableDefinition(name: "Tasks", columns: ["due": .text, "level": .text, "size": .number],
                                             indexes: [["due"]], sortRules: rules, orderIndexes: [["due", "level"]])
        let store = try SQLiteSyncStore(path: path ?? TempDir.make().appendingPathComponent("s.sqlite").path, tables: [definition])
        return SyncContext(client: nil, dataSource: store).table("Tasks")
    }

    func ids(_ table: SyncTable, _ query: SyncQuery) throws -> [String] {
        try table.read(query).items.compactMap { $0["id"]?.stringValue }
    }

    @Test func nullsLastPutsRowsWithoutAValueAfterTheOthers() async throws {
        let t = try table(rules: ["due": .nullsLast, "size": .nullsLast])
        for (id, due, size) in [("a", nil, 2), ("b", "2026-12-01", nil), ("c", "2026-11-01", 1)] as [(String, String?, Int?)] {
            try await t.insert(["id": .string(id), "due": due.map(JSONValue.string) ?? .null, "size": size.map { .number(Double($0)) } ?? .null])
        }
        #expect(try ids(t, t.query.order(by: "due")) == ["c", "b", "a"])
        #expect(try ids(t, t.query.order(by: "due", ascending: false)) == ["a", "b", "c"])
        #expect(try ids(t, t.query.order(by: "size")) == ["c", "a", "b"])
    }

    @Test func rangeTestsOnANullsLastColumnFindTheSameRows() async throws {
        let t = try table(rules: ["due": .nullsLast])
        for (id, due) in [("none", nil), ("early", "2026-11-01"), ("mid", "2026-11-24"), ("late", "2026-12-01")] as [(String, String?)] {
            try await t.insert(["id": .string(id), "due": due.map(JSONValue.string) ?? .null])
        }
        func found(_ predicate: QueryPredicate) throws -> Set<String> { Set(try ids(t, t.query.filter(predicate))) }
        #expect(try found(Field("due") <= "2026-11-24") == ["early", "mid"])
        #expect(try found(Field("due") < "2026-11-24") == ["early"])
        #expect(try found(Field("due") > "2026-11-24") == ["late"])
        #expect(try found(Field("due") >= "2026-11-24") == ["mid", "late"])
        #expect(try found(Field("due") > "2026-11-01" && Field("due") <= "2026-11-30") == ["mid"])
        #expect(try found(Field("due") == nil || Field("due") < "2026-11-02") == ["none", "early"])
        #expect(try found(Field("due") != nil && Field("due") <= "2026-11-24") == ["early", "mid"])
        #expect(try found(Field("due") != nil && (Field("due") > "2026-11-30" || Field("due") <= "2026-11-01")) == ["early", "late"])
    }

    @Test func hasAValueTestsOnNullsLastColumnsFindTheSameRows() async throws {
        let t = try table(rules: ["due": .nullsLast, "size": .nullsLast])
        for (id, due, size) in [("none", nil, nil), ("dated", "2026-11-01", nil), ("sized", nil, -5), ("both", "2026-12-01", 0)] as [(String, String?, Int?)] {
            try await t.insert(["id": .string(id), "due": due.map(JSONValue.string) ?? .null, "size": size.map { .number(Double($0)) } ?? .null])
        }
        func found(_ predicate: QueryPredicate) throws -> Set<String> { Set(try ids(t, t.query.filter(predicate))) }
        #expect(try found(Field("due") != nil) == ["dated", "both"])
        #expect(try found(Field("size") != nil) == ["sized", "both"])
        #expect(try found(Field("due") != nil && Field("size") == nil) == ["dated"])
        #expect(try t.read(t.query.filter(Field("due") != nil).withTotalCount()).totalCount == 2)
    }

    @Test func rankedSortsByTheGivenOrderOthersAndNoneLast() async throws {
        let t = try table(rules: ["level": .ranked(["high", "medium", "low"])])
        for (id, level) in [("a", "low"), ("b", nil), ("c", "high"), ("d", "weird"), ("e", "medium")] as [(String, String?)] {
            try await t.insert(["id": .string(id), "level": level.map(JSONValue.string) ?? .null])
        }
        #expect(try ids(t, t.query.order(by: "level")) == ["c", "e", "a", "b", "d"])
    }

    @Test func aStoreMadeWithoutTheRuleGainsItOnOpen() async throws {
        let path = try TempDir.make().appendingPathComponent("s.sqlite").path
        let before = try table(path: path, rules: [:])
        try await before.insert(["id": "a", "due": .null])
        try await before.insert(["id": "b", "due": "2026-12-01"])
        #expect(try ids(before, before.query.order(by: "due")) == ["a", "b"])
        let after = try table(path: path, rules: ["due": .nullsLast])
        #expect(try ids(after, after.query.order(by: "due")) == ["b", "a"])
        #expect(try after.read(id: "b")?.keys.contains { $0.hasPrefix("__sort") } == false)  // never part of an item
    }
}
