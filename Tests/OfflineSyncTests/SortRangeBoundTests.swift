import GRDB
@testable import OfflineSync
import Testing

/// A range on a nulls-last column with an upper bound carries no second upper bound for "has a
/// value": SQLite took that one (the sentinel) for the index range's end and walked every row with
/// a value.
@Suite struct SortRangeBoundTests {
    let definition = SyncTableDefinition(name: "Tasks", columns: ["due": .text, "listId": .text], sortRules: ["due": .nullsLast], orderIndexes: [["due"]])
    let sentinel = "\u{10FFFF}".databaseValue

    func binds(_ predicate: QueryPredicate) throws -> [DatabaseValue] {
        try LocalSelect(query: SyncQuery(table: "Tasks").filter(predicate), definition: definition).rowsBinds
    }

    @Test(arguments: [Field("due") != nil && Field("due") <= "2026-11-24", Field("due") > "2026-11-24" && Field("due") <= "2026-12-01",
                      Field("due") < "2026-12-01" && (Field("due") != nil && Field("due") >= "2026-11-01")])
    func anUpperBoundInTheSameConjunctionLeavesTheSentinelOut(_ predicate: QueryPredicate) throws {
        #expect(!(try binds(predicate)).contains(sentinel))
    }

    @Test func anUpperBoundAtTheFarEndOfALongChainLeavesTheSentinelOut() throws {
        // The Inbox's shape: one test per list, in one `and` chain with the due range.
        let lists = (0..<300).reduce(Field("due") != nil) { $0 && Field("listId") != .string("list-\($1)") }
        let binds = try binds(lists && Field("due") <= "2026-11-24")
        #expect(!binds.contains(sentinel))
        #expect(binds.contains("list-299".databaseValue) && binds.contains("2026-11-24".databaseValue))
    }

    @Test func thousandsOfTermsJoinedByAllTranslateAndKeepTheirUpperBound() throws {
        let terms = [Field("due") != nil] + (0..<5_000).map { Field("listId") != .string("list-\($0)") } + [Field("due") <= "2026-11-24"]
        let binds = try binds(try #require(QueryPredicate.all(terms)))
        #expect(!binds.contains(sentinel))
        #expect(binds.contains("list-4999".databaseValue))
    }

    @Test func allOfOneIsItAndAllOfNoneIsNil() {
        #expect(QueryPredicate.all([Field("due") != nil]) == (Field("due") != nil))
        #expect(QueryPredicate.all([]) == nil)
    }

    @Test(arguments: [Field("due") != nil, Field("due") > "2026-11-24", Field("due") != nil || Field("due") <= "2026-11-24"])
    func withoutAnUpperBoundBesideItHavingAValueStaysBelowTheSentinel(_ predicate: QueryPredicate) throws {
        #expect(try binds(predicate).contains(sentinel))
    }
}
