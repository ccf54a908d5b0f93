import Foundation
import GRDB
import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// Local writes and reads: rows and queue change together, the collapse rules hold in the store.
@Suite struct LocalTableTests {
    func fixture() async throws -> SyncFixture { try await SyncFixture.make(localOnly: true) }

    @Test func insertWithoutIdGeneratesOneAndQueuesAnInsert() async throws {
        let f = try await fixture()
        let saved = try await f.local.insert(["text": "milk"])
        let id = try #require(saved["id"]?.stringValue)
        #expect(!id.isEmpty)
        #expect(try f.local.read(id: id)?["text"] == "milk")
        #expect(f.context.pendingOperationsCount == 1)
    }

    @Test func insertOfAnExistingIdFailsAndChangesNothing() async throws {
        let f = try await fixture()
        try await f.local.insert(todo("a", "first"))
        await #expect(throws: SyncError.self) { try await f.local.insert(todo("a", "second")) }
        #expect(try f.local.read(id: "a")?["text"] == "first")
        #expect(f.context.pendingOperationsCount == 1)
    }

    @Test(arguments: ["a/b", "..", "a?b", "x\"y"])
    func insertWithAnInvalidIdFails(_ id: String) async throws {
        let f = try await fixture()
        await #expect(throws: SyncError.self) { try await f.local.insert(todo(id, "bad")) }
        #expect(f.context.pendingOperationsCount == 0)
    }

    @Test func idsAreLookedUpCaseInsensitively() async throws {
        let f = try await fixture()
        try await f.local.insert(todo("AbC", "x"))
        #expect(try f.local.read(id: "abc")?["text"] == "x")
    }

    @Test func insertThenUpdateKeepsOneInsertWithTheLatestRow() async throws {
        let f = try await fixture()
        try await f.local.insert(todo("a", "one"))
        try await f.local.update(todo("a", "two"))
        #expect(f.context.pendingOperationsCount == 1)
        #expect(try f.local.read(id: "a")?["text"] == "two")
    }

    @Test func insertThenDeleteLeavesNothingToSend() async throws {
        let f = try await fixture()
        try await f.local.insert(todo("a", "one"))
        try await f.local.delete(["id": "a"])
        #expect(f.context.pendingOperationsCount == 0)
        #expect(try f.local.read(id: "a") == nil)
    }

    @Test func updateOfAnUnknownItemUpsertsIt() async throws {
        let f = try await fixture()
        try await f.local.update(todo("new", "made by update"))
        #expect(try f.local.read(id: "new")?["text"] == "made by update")
        #expect(f.context.pendingOperationsCount == 1)
    }

    @Test func updateAfterDeleteIsRejectedAndTheStoreIsUntouched() async throws {
        let f = try await fixture()
        try await f.local.update(todo("a", "x"))
        try await f.local.delete(["id": "a"])
        await #expect(throws: SyncError.self) { try await f.local.update(todo("a", "again")) }
        #expect(try f.local.read(id: "a") == nil)
        #expect(f.context.pendingOperationsCount == 1)
    }

    @Test func unknownKeysAreDroppedAndMissingKeysAreNull() async throws {
        let f = try await fixture()
        try await f.local.insert(["id": "a", "text": "x", "nosuch": 5])
        let row = try #require(try f.local.read(id: "a"))
        #expect(row["nosuch"] == nil)
        #expect(row["priority"] == .null)
    }

    @Test func insertAndUpdateAnswerTheItemExactlyAsStored() async throws {
        let f = try await fixture()
        let inserted = try await f.local.insert(["id": "AbC", "text": "x", "complete": true, "nosuch": 5])
        #expect(inserted == (try f.local.read(id: "abc")))
        #expect(inserted["nosuch"] == nil && inserted["priority"] == .null && inserted["complete"] == true)
        let updated = try await f.local.update(["id": "abc", "priority": 2])
        #expect(updated == (try f.local.read(id: "abc")))
        #expect(updated["id"] == "AbC" && updated["text"] == "x" && updated["priority"] == 2)
    }

    @Test func wrongValueTypeIsAnError() async throws {
        let f = try await fixture()
        await #expect(throws: SyncError.self) { try await f.local.insert(["id": "a", "priority": "high"]) }
        #expect(f.context.pendingOperationsCount == 0)
    }

    @Test func localQueryFiltersOrdersAndPagesInSQLite() async throws {
        let f = try await fixture()
        for (i, text) in ["pear", "apple", "fig", "banana"].enumerated() {
            try await f.local.insert(["id": .string("i\(i)"), "text": .string(text), "complete": .bool(i % 2 == 0), "priority": .number(Double(i))])
        }
        let query = f.local.query.filter(Field("complete") == false).order(by: "text").withTotalCount()
        let result = try f.local.read(query)
        #expect(result.items.map { $0["text"] } == ["apple", "banana"])
        #expect(result.totalCount == 2)
        let paged = try f.local.read(f.local.query.order(by: "priority", ascending: false).limit(2).offset(1))
        #expect(paged.items.map { $0["id"] } == ["i2", "i1"])
        let odata = try f.local.read(try f.local.query.filter(odata: "startswith(text, 'b') or priority ge 3"))
        #expect(Set(odata.items.compactMap { $0["id"]?.stringValue }) == ["i3"])
    }

    @Test func localQueryOnAnUnknownColumnIsAnError() async throws {
        let f = try await fixture()
        #expect(throws: SyncError.self) { try f.local.read(f.local.query.filter(Field("nosuch") == 1)) }
    }

    @Test func reopeningWithANewColumnAddsItAndKeepsTheRows() async throws {
        let f = try await fixture()
        try await f.local.insert(todo("a", "kept"))
        let store = try SQLiteSyncStore(path: f.storePath, tables: [
            SyncTableDefinition(name: f.table, columns: SyncFixture.columns.merging(["notes": .text]) { $1 }),
        ])
        let context = SyncContext(client: nil, dataSource: store)
        try await context.table(f.table).update(["id": "a", "notes": "new column"])
        let row = try #require(try context.table(f.table).read(id: "a"))
        #expect(row["text"] == "kept")
        #expect(row["notes"] == "new column")
    }

    @Test func pushWithoutAServerFailsAsNetworkAndKeepsTheQueue() async throws {
        let f = try await fixture()
        try await f.local.insert(todo("a", "x"))
        do {
            try await f.context.push()
            Issue.record("push should fail")
        } catch let error as SyncError {
            #expect(error.code == .pushAbortedNetwork)
        }
        #expect(f.context.pendingOperationsCount == 1)
    }
}

/// Human-sorted text columns: case and accents set aside, locally and through the index.
@Suite struct HumanOrderTests {
    static let texts = ["Zebra", "apple pie", "_under", "banana", "ärger", "Apple", "Éclair", "eclair", "Banana split"]

    func store() throws -> SyncTable {
        let definition = SyncTableDefinition(name: "Words", columns: ["text": .text], indexes: [["text", "id"]], humanSorted: ["text"])
        let store = try SQLiteSyncStore(path: try TempDir.make().appendingPathComponent("h.sqlite").path, tables: [definition])
        return SyncContext(client: nil, dataSource: store).table("Words")
    }

    @Test func mixedCaseAndAccentsSortTogether() async throws {
        let table = try store()
        for (i, text) in Self.texts.enumerated() { _ = try await table.insert(["id": .string("w\(i)"), "text": .string(text)]) }
        let sorted = try table.read(table.query.order(by: "text")).items.compactMap { $0["text"]?.stringValue }
        #expect(sorted == ["_under", "Apple", "apple pie", "ärger", "banana", "Banana split", "eclair", "Éclair", "Zebra"])
    }

    @Test func theOrderIsTheSameInSwiftAndInTheStore() async throws {
        let table = try store()
        for (i, text) in Self.texts.enumerated() { _ = try await table.insert(["id": .string("w\(i)"), "text": .string(text)]) }
        let stored = try table.read(table.query.order(by: "text")).items.compactMap { $0["text"]?.stringValue }
        #expect(stored == Self.texts.sorted { HumanOrder.compare($0, $1) == .orderedAscending })
    }

    @Test func descendingIsTheReverse() async throws {
        let table = try store()
        for (i, text) in Self.texts.enumerated() { _ = try await table.insert(["id": .string("w\(i)"), "text": .string(text)]) }
        let up = try table.read(table.query.order(by: "text")).items.compactMap { $0["id"]?.stringValue }
        let down = try table.read(table.query.order(by: "text", ascending: false)).items.compactMap { $0["id"]?.stringValue }
        #expect(down == up.reversed())
    }

    @Test func theASCIIFastPathAgreesWithFoundation() {
        var seed: UInt64 = 42
        func next() -> UInt64 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return seed >> 33
        }
        let alphabet = Array("aAbBzZ_ -09~[]`^.".utf8)
        for _ in 0..<5_000 {
            let a = String(decoding: (0..<(next() % 6)).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }, as: UTF8.self)
            let b = String(decoding: (0..<(next() % 6)).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }, as: UTF8.self)
            let foundation = a.compare(b, options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive])
            if foundation != .orderedSame { #expect(HumanOrder.compare(a, b) == foundation, "\(a) vs \(b)") }
        }
    }

    @Test func orderingUsesTheCollatedIndex() throws {
        let path = try TempDir.make().appendingPathComponent("h.sqlite").path
        let definition = SyncTableDefinition(name: "Words", columns: ["text": .text], indexes: [["text", "id"]], humanSorted: ["text"])
        _ = try SQLiteSyncStore(path: path, tables: [definition])
        var config = Configuration()
        config.prepareDatabase { try HumanOrder.register(on: $0) }
        let details = try DatabaseQueue(path: path, configuration: config).read { db in
            try Row.fetchAll(db, sql: #"EXPLAIN QUERY PLAN SELECT * FROM "Words" ORDER BY "text" COLLATE offline_sync_human, "id" LIMIT 10"#).map { $0["detail"] as String }
        }
        #expect(details.contains { $0.contains("Words_text_id_human") })
        #expect(!details.contains { $0.contains("TEMP B-TREE") })
    }
}

/// Columns with a sort rule: rows without a value last, text values by rank; an existing store
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
