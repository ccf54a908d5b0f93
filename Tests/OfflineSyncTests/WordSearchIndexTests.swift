import Foundation
import GRDB
@testable import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// A `wordSearchable` column's word index changes how fast `hasWord` filters run, never what
/// they return: every result is compared with the same query on a table without the index.
@Suite struct WordSearchIndexTests {
    static let rows = 1_500

    static func definition(words: [String]) -> SyncTableDefinition {
        SyncTableDefinition(name: "items", columns: ["text": .text, "tags": .text, "done": .boolean],
                            indexes: [["done", "text", "id"]], searchable: ["text"], wordSearchable: words)
    }

    /// Tags of every kind a person types: punctuation inside a word, letters beyond ASCII, both
    /// letter cases, and words that begin other words (`c`, `ca`, `call`).
    static let tags = ["call home", "Call", "home-office @work", "über café", "a'b x\"y", "c", "ca callback", "errands", "100% later"]

    func pair() throws -> TextSearchIndexTests.Pair {
        let dir = try TempDir.make()
        let path = dir.appendingPathComponent("indexed.sqlite").path
        let pair = TextSearchIndexTests.Pair(
            indexed: try SQLiteSyncStore(path: path, tables: [Self.definition(words: ["tags"])]),
            plain: try SQLiteSyncStore(path: dir.appendingPathComponent("plain.sqlite").path, tables: [Self.definition(words: [])]),
            path: path)
        let rows: [JSONObject] = (0..<Self.rows).map { i in
            ["id": .string("r\(i)"), "text": .string("item \(i)"), "tags": i % 10 == 9 ? .null : .string(Self.tags[i % Self.tags.count]), "done": .bool(i % 5 == 0)]
        }
        try pair.write { session, table in try session.upsert(rows, in: table, space: nil) }
        return pair
    }

    func tagged(_ word: String) -> SyncQuery {
        SyncQuery(table: "items").filter(Field("done") == false).filter(Field("tags").hasWord(word)).order(by: "text").limit(40).withTotalCount()
    }

    @Test(arguments: ["c", "ca", "cal", "call", "Call", "CALL", "home", "home-office", "@work", "über", "Über", "café", "a'b", "x\"y",
                      "100%", "callback", "nowhere", "", "call home"])
    func hasWordReturnsWhatAScanReturns(_ word: String) throws {
        let r = try pair().results(tagged(word))
        #expect(r.indexed == r.plain)
        #expect(r.indexedCount == r.plainCount)
    }

    @Test func aWordIsTheWholeValueOrOneOfItsWordsNeverPartOfOne() throws {
        let p = try pair()
        try p.indexed.write {
            try $0.upsert([["id": "w1", "tags": "zeta", "done": false], ["id": "w2", "tags": "alpha zeta", "done": false],
                           ["id": "w3", "tags": "zeta omega", "done": false], ["id": "w4", "tags": "alpha zeta omega", "done": false],
                           ["id": "w5", "tags": "zetas azeta", "done": false]], in: "items", space: nil)
        }
        #expect(try p.indexed.read { try $0.items(tagged("zeta")) }.items.compactMap { $0["id"]?.stringValue }.sorted() == ["w1", "w2", "w3", "w4"])
    }

    /// A row the word index never saw (its insert trigger dropped first) is not found: the
    /// answer came from the index, however short the word, while a text search still scans.
    @Test func aWordIsAnsweredFromTheIndexHoweverShort() throws {
        let p = try pair()
        try DatabaseQueue(path: p.path).write { db in
            try db.execute(sql: #"DROP TRIGGER "MS_Words_items_insert""#)
            try db.execute(sql: "INSERT INTO items (id, text, tags, done) VALUES ('hidden', 'unseen', 'q', 0)")
        }
        #expect(try p.indexed.read { try $0.items(tagged("q")) }.items.isEmpty)
        let plain = SyncQuery(table: "items").filter(Field("tags") == "q")
        #expect(try p.indexed.read { try $0.items(plain) }.items.compactMap { $0["id"]?.stringValue } == ["hidden"])
    }

    @Test func theIndexFollowsInsertsUpdatesAndDeletes() throws {
        let p = try pair()
        try p.indexed.write { session in
            try session.upsert([["id": "new", "tags": "zebra", "done": false]], in: "items", space: nil)
            try session.upsert([["id": "r1", "tags": "zebra stripes", "done": false]], in: "items", space: nil)
            try session.upsert([["id": "r2", "tags": "stripes", "done": false]], in: "items", space: nil)
            try session.deleteItems(ids: ["new"], in: "items", space: nil)
        }
        #expect(try p.indexed.read { try $0.items(tagged("zebra")) }.items.compactMap { $0["id"]?.stringValue } == ["r1"])
        #expect(try p.indexed.read { try $0.items(tagged("stripes")) }.items.compactMap { $0["id"]?.stringValue }.sorted() == ["r1", "r2"])
    }

    @Test func rowsStoredBeforeTheColumnWasWordSearchableAreFound() throws {
        let dir = try TempDir.make()
        let path = dir.appendingPathComponent("late.sqlite").path
        let before = try SQLiteSyncStore(path: path, tables: [Self.definition(words: [])])
        try before.write { try $0.upsert([["id": "old", "tags": "before index", "done": false]], in: "items", space: nil) }
        let after = try SQLiteSyncStore(path: path, tables: [Self.definition(words: ["tags"])])
        #expect(try after.read { try $0.items(tagged("index")) }.items.compactMap { $0["id"]?.stringValue } == ["old"])
        let index = try DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE name = 'MS_Words_items'") }
        #expect(index == "MS_Words_items")
    }

    @Test func aWordSearchableColumnMustBeADeclaredTextColumn() throws {
        let dir = try TempDir.make()
        #expect(throws: SyncError.self) {
            try SQLiteSyncStore(path: dir.appendingPathComponent("bad.sqlite").path, tables: [Self.definition(words: ["done"])])
        }
    }

    /// The store finds a word test however its `or`s were grouped (a query is balanced before it
    /// is read), beside a text search in the same conjunction.
    @Test func aWordTestIsFoundRegroupedBesideATextSearch() {
        let word = Field("tags").hasWord("c").expression.balancingChains()
        let text = Field("text").lowercased().contains("item").expression
        let matches = TextSearchIndex.matchExpressions(FilterExpression(.binary(.and, text, word)), definition: Self.definition(words: ["tags"]))
        #expect(matches.map(\.index) == ["MS_Words_items", "MS_Search_items"])
        #expect(matches.first?.match == #""c""#)
        #expect(WordTest.match(Field("tags").hasWord("c").expression)?.word == "c")
        #expect(WordTest.match((Field("tags") == "c" || Field("tags").startsWith("c ")).expression) == nil)
        #expect(WordTest.match((Field("tags").hasWord("c") || Field("tags") == "d").expression) == nil, "a fifth term: no word test")
    }

    /// A word many rows carry beside a text few hold: the text's index answers (a scan of the
    /// word's rows would read most of the table), and the result is a scan's.
    @Test func theIndexWithFewerCandidatesAnswers() throws {
        let p = try pair()
        let many: [JSONObject] = (0..<(TextSearchIndex.maximumCandidates + 10)).map { i in
            ["id": .string("m\(i)"), "text": .string("common \(i)"), "tags": "everywhere", "done": false]
        }
        try p.write { session, table in
            try session.upsert(many + [["id": "rare", "text": "unusual words", "tags": "everywhere", "done": false]], in: table, space: nil)
        }
        // The row the text index never saw is not found: the answer came from it.
        try DatabaseQueue(path: p.path).write { db in
            try db.execute(sql: #"DROP TRIGGER "MS_Search_items_insert""#)
            try db.execute(sql: "INSERT INTO items (id, text, tags, done) VALUES ('hidden', 'unusual too', 'everywhere', 0)")
        }
        let query = tagged("everywhere").filter(Field("text").lowercased().contains("unusual"))
        #expect(try p.indexed.read { try $0.items(query) }.items.compactMap { $0["id"]?.stringValue } == ["rare"])
        #expect(try p.plain.read { try $0.items(query) }.items.compactMap { $0["id"]?.stringValue } == ["rare"])
    }

    /// A word the tokenizer would cut in two (a space or a control character in it) is left to a scan.
    @Test func aWordWithASpaceInsideIsLeftToAScan() {
        #expect(TextSearchIndex.matchExpressions(Field("tags").hasWord("two words").expression, definition: Self.definition(words: ["tags"])).isEmpty)
        #expect(TextSearchIndex.matchExpressions(Field("tags").hasWord("tab\tin").expression, definition: Self.definition(words: ["tags"])).isEmpty)
    }
}
