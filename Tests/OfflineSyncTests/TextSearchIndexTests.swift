import Foundation
import GRDB
@testable import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// A `searchable` column's trigram index changes how fast `contains` filters run, never what
/// they return: every result is compared with the same query on a table without the index.
@Suite struct TextSearchIndexTests {
    static let rows = 1_500  // a common needle has hundreds of candidates, a rare one a few (the limit is `TextSearchIndex.maximumCandidates`)

    /// Two stores with the same rows: one with `text` searchable, one without.
    struct Pair {
        let indexed: SQLiteSyncStore
        let plain: SQLiteSyncStore
        let path: String

        func write(_ body: (any SyncStoreSession, String) throws -> Void) throws {
            try indexed.write { try body($0, "items") }
            try plain.write { try body($0, "items") }
        }

        /// Ids and count of a query on both stores.
        func results(_ query: SyncQuery) throws -> (indexed: [String], plain: [String], indexedCount: Int?, plainCount: Int?) {
            let a = try indexed.read { try $0.items(query) }
            let b = try plain.read { try $0.items(query) }
            return (a.items.compactMap { $0["id"]?.stringValue }, b.items.compactMap { $0["id"]?.stringValue }, a.totalCount, b.totalCount)
        }
    }

    static func definition(searchable: [String]) -> SyncTableDefinition {
        SyncTableDefinition(name: "items", columns: ["text": .text, "note": .text, "done": .boolean],
                            indexes: [["done", "text", "id"]], searchable: searchable)
    }

    func pair() throws -> Pair {
        let dir = try TempDir.make()
        let path = dir.appendingPathComponent("indexed.sqlite").path
        let pair = Pair(
            indexed: try SQLiteSyncStore(path: path, tables: [Self.definition(searchable: ["text"])]),
            plain: try SQLiteSyncStore(path: dir.appendingPathComponent("plain.sqlite").path, tables: [Self.definition(searchable: [])]),
            path: path)
        let words = ["Buy", "call", "write", "fix", "plan", "read"]
        try pair.write { session, table in
            try session.upsert((0..<Self.rows).map { i in
                ["id": .string("r\(i)"), "text": .string("\(words[i % words.count]) item \(i)"), "note": .string("n\(i % 7)"), "done": .bool(i % 5 == 0)]
            }, in: table, space: nil)
        }
        return pair
    }

    func containsQuery(_ needle: String, lowercased: Bool = true) -> SyncQuery {
        let field = lowercased ? Field("text").lowercased() : Field("text")
        return SyncQuery(table: "items").filter(Field("done") == false).filter(field.contains(.string(needle)))
            .order(by: "text").limit(40).withTotalCount()
    }

    @Test(arguments: ["item 7", "item 1", "buy item 1", "ite", "it", "item 9999", "em 14", "ITEM 3"])
    func containsReturnsWhatAScanReturns(_ needle: String) throws {
        let p = try pair()
        let r = try p.results(containsQuery(needle))
        #expect(r.indexed == r.plain)
        #expect(r.indexedCount == r.plainCount)
    }

    @Test func rareNeedlesAreAnsweredFromTheIndexAndShortOnesByAScan() throws {
        let p = try pair()
        // A row the index never saw (its insert trigger dropped first): only a scan finds it.
        try DatabaseQueue(path: p.path).write { db in
            try db.execute(sql: #"DROP TRIGGER "MS_Search_items_insert""#)
            try db.execute(sql: "INSERT INTO items (id, text, done) VALUES ('hidden', 'unindexed words', 0)")
        }
        #expect(try p.indexed.read { try $0.items(containsQuery("unindexed")) }.items.isEmpty)
        #expect(try p.indexed.read { try $0.items(containsQuery("un")) }.items.compactMap { $0["id"]?.stringValue } == ["hidden"])
    }

    @Test func aCaseSensitiveContainsStaysCaseSensitive() throws {
        let p = try pair()
        let r = try p.results(containsQuery("Buy item 1", lowercased: false))
        #expect(!r.plain.isEmpty)
        #expect(r.indexed == r.plain)
        #expect(try p.results(containsQuery("buy item 1", lowercased: false)).indexed.isEmpty)
    }

    @Test func pagesThroughTheCandidatesMatchAScan() throws {
        let p = try pair()
        for offset in [0, 40, 80] {
            let query = containsQuery("item 1").offset(offset)
            let r = try p.results(query)
            #expect(r.indexed == r.plain)
        }
    }

    @Test func quotesAndWildcardsInTheNeedleAreLiteral() throws {
        let p = try pair()
        try p.write { session, table in
            try session.upsert([["id": "q1", "text": "say \"hi\" 100% _now_", "done": false]], in: table, space: nil)
        }
        for needle in ["\"hi\"", "100%", "_now_", "y \"h"] {
            let r = try p.results(containsQuery(needle))
            #expect(r.indexed == ["q1"])
            #expect(r.indexed == r.plain)
        }
    }

    @Test func theIndexFollowsInsertsUpdatesReplacementsAndDeletes() throws {
        let p = try pair()
        try p.write { session, table in
            try session.upsert([["id": "new", "text": "zebra crossing", "done": false]], in: table, space: nil)
            try session.upsert([["id": "r1", "text": "zebra stripes", "done": false]], in: table, space: nil)  // replaces r1
            try session.deleteItems(ids: ["new"], in: table, space: nil)
        }
        #expect(try p.results(containsQuery("zebra")).indexed == ["r1"])
        #expect(try p.results(containsQuery("call item 1")).indexed.contains("r1") == false)
    }

    @Test func rowsStoredBeforeTheColumnBecameSearchableAreFound() throws {
        let dir = try TempDir.make()
        let path = dir.appendingPathComponent("late.sqlite").path
        let before = try SQLiteSyncStore(path: path, tables: [Self.definition(searchable: [])])
        try before.write { try $0.upsert([["id": "old", "text": "written before the index", "done": false]], in: "items", space: nil) }
        let after = try SQLiteSyncStore(path: path, tables: [Self.definition(searchable: ["text"])])
        let found = try after.read { try $0.items(containsQuery("before the")) }
        #expect(found.items.compactMap { $0["id"]?.stringValue } == ["old"])
    }

    @Test func aSecondSearchableColumnIsSearchedOnItsOwn() throws {
        let dir = try TempDir.make()
        let store = try SQLiteSyncStore(path: dir.appendingPathComponent("two.sqlite").path,
                                        tables: [Self.definition(searchable: ["text", "note"])])
        try store.write {
            try $0.upsert([["id": "a", "text": "alpha", "note": "beta", "done": false],
                           ["id": "b", "text": "beta", "note": "gamma", "done": false]], in: "items", space: nil)
        }
        let query = SyncQuery(table: "items").filter(Field("note").contains("beta"))
        #expect(try store.read { try $0.items(query) }.items.compactMap { $0["id"]?.stringValue } == ["a"])
    }

    @Test func aSearchableColumnMustBeADeclaredTextColumn() throws {
        let dir = try TempDir.make()
        #expect(throws: SyncError.self) {
            try SQLiteSyncStore(path: dir.appendingPathComponent("bad.sqlite").path, tables: [Self.definition(searchable: ["done"])])
        }
        #expect(throws: SyncError.self) {
            try SQLiteSyncStore(path: dir.appendingPathComponent("bad2.sqlite").path, tables: [Self.definition(searchable: ["missing"])])
        }
    }

    @Test func aNeedleAsksForRowsHoldingEachOfItsTrigrams() {
        let predicate = Field("text").lowercased().contains("item 1").expression
        let matches = TextSearchIndex.matchExpressions(predicate, definition: Self.definition(searchable: ["text"]))
        #expect(matches.map(\.index) == ["MS_Search_items"])
        #expect(matches.first?.match == #""ite" AND "tem" AND "em " AND "m 1""#)
    }

    @Test func aTrigramIsCutFromUnicodeScalarsAndCountedOnce() {
        #expect(TextSearchIndex.trigrams(of: "café!") == ["caf", "afé", "fé!"])
        #expect(TextSearchIndex.trigrams(of: "aaaaa") == ["aaa"])
        #expect(TextSearchIndex.trigrams(of: "ab").isEmpty && TextSearchIndex.trigrams(of: "").isEmpty)
        #expect(TextSearchIndex.trigrams(of: "the quick brown fox jumps over the lazy dog") == ["the", "he ", "e q", " qu", "qui", "uic", "ick", "ck ", "k b", " br", "bro", "row"])
    }

    /// A row holding every trigram of the needle but not the needle is a candidate the filter leaves out.
    @Test func aRowHoldingTheTrigramsApartIsNotAResult() throws {
        let p = try pair()
        try p.write { session, table in
            try session.upsert([["id": "apart", "text": "abcd bcde", "done": false],
                                ["id": "whole", "text": "xabcdex", "done": false]], in: table, space: nil)
        }
        let r = try p.results(containsQuery("abcde"))
        #expect(r.indexed == ["whole"])
        #expect(r.indexed == r.plain)
    }

    /// A store made by a version whose index kept positions has it made again, and finds as before.
    @Test func anIndexOfAnEarlierDefinitionIsMadeAgain() throws {
        let p = try pair()
        try DatabaseQueue(path: p.path).write { db in
            try db.execute(sql: #"DROP TABLE "MS_Search_items""#)
            try db.execute(sql: #"CREATE VIRTUAL TABLE "MS_Search_items" USING fts5("text", content="items", content_rowid='rowid', tokenize='trigram', columnsize=0)"#)
        }
        let reopened = try SQLiteSyncStore(path: p.path, tables: [Self.definition(searchable: ["text"])])
        let sql = try DatabaseQueue(path: p.path).read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'MS_Search_items'")
        }
        #expect(sql?.contains("detail=none") == true)
        let found = try reopened.read { try $0.items(containsQuery("item 14")) }.items.compactMap { $0["id"]?.stringValue }
        #expect(found == (try p.plain.read { try $0.items(containsQuery("item 14")) }.items.compactMap { $0["id"]?.stringValue }))
        #expect(!found.isEmpty)
    }
}
