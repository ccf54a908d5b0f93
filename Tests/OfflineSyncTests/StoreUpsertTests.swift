import Foundation
@testable import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// The store's upsert of whole items (a push's answers, a pulled page) into a table whose rows
/// it reads for all the items at once.
@Suite struct StoreUpsertTests {
    let table = "items"
    let store: SQLiteSyncStore

    init() throws {
        store = try SQLiteSyncStore(path: try TempDir.make().appendingPathComponent("d.sqlite").path,
                                    tables: [BulkPullTests.definition(table)])
        try store.write { try $0.upsert([["id": "Old", "text": "stored", "complete": false]], in: table, space: nil) }
    }

    func text(_ id: String) throws -> JSONValue? { try store.read { try $0.item(in: table, id: id, space: nil) }?["text"] }

    @Test func anIdGivenTwiceEndsWithItsSecondItem() throws {
        try store.write { session in
            try session.upsert([["id": "new", "text": "first", "complete": false], ["id": "NEW", "text": "second", "complete": true],
                                ["id": "old", "text": "changed", "complete": false], ["id": "OLD", "text": "changed again", "complete": false]],
                               in: table, space: nil)
        }
        #expect(try text("new") == "second")
        #expect(try text("old") == "changed again")
        #expect(try store.read { try $0.items(SyncQuery(table: table)) }.items.count == 2)
    }

    @Test func aStoredRowKeepsItsIdsLetterCase() throws {
        try store.write { try $0.upsert([["id": "OLD", "text": "changed", "complete": false]], in: table, space: nil) }
        #expect(try store.read { try $0.item(in: table, id: "old", space: nil) }?["id"] == "Old")
    }

    @Test func anItemWhoseIdKeyIsSpelledInCapitalsStillFindsItsRow() throws {
        try store.write { try $0.upsert([["ID": "old", "text": "changed", "complete": false]], in: table, space: nil) }
        #expect(try text("old") == "changed")
    }
}
