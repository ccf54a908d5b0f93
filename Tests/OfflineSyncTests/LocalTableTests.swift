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

    /// SQLite took the store's strings as C strings: "a\u{0}b" was kept as "a".
    @Test func aTextWithANULIsRefusedNotCutShort() async throws {
        let f = try await fixture()
        await #expect(throws: SyncError.self) { try await f.local.insert(["id": "n", "text": "a\u{0}b"]) }
        #expect(try f.local.read(id: "n") == nil)
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

    @Test func countsGroupedByAColumnCountEachValueAndNullWithinTheFilter() async throws {
        let f = try await fixture()
        for (i, priority) in [1.0, 2, 1, nil, 1].enumerated() {
            try await f.local.insert(["id": .string("i\(i)"), "text": "t", "complete": .bool(i == 4), "priority": priority.map(JSONValue.number) ?? .null])
        }
        let counts = try f.local.counts(f.local.query.filter(Field("complete") == false), groupedBy: "priority")
        #expect(counts == [.number(1): 2, .number(2): 1, .null: 1])
        #expect(throws: SyncError.self) { try f.local.counts(f.local.query, groupedBy: "nosuch") }
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

/// Property names meet columns whatever their letter case.
@Suite struct PropertyNameCaseTests {
    @Test func anItemsPropertiesInAnotherLetterCaseLandInTheirColumns() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        try await f.local.insert(["id": "a", "TEXT": "milk", "Complete": true])
        let stored = try #require(try f.local.read(id: "a"))
        #expect(stored["text"] == "milk" && stored["complete"] == true)
    }

    @Test func aPropertyInTheColumnsOwnLetterCaseWinsOverAnother() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        try await f.local.insert(JSONObject([("id", "a"), ("TEXT", "other case"), ("text", "own case"), ("Text", "third")]))
        #expect(try f.local.read(id: "a")?["text"] == "own case")
    }
}
