import Foundation
import TableProtocol
import Testing
import TodoModel

/// A lost edit as the server's table keeps it and `todo` reads it back.
@Suite struct LostEditTests {
    let at = Date(timeIntervalSince1970: 1_795_000_000)

    @Test func aLostEditReadsBackFromItsColumns() throws {
        let edit = LostEdit(itemId: "a", fields: ["text", "notes"], lost: ["text": "Oat milk", "notes": "two litres"], text: "Oat milk",
                            sentBy: "DAVx5", at: at)
        let read = try #require(LostEdit(columns: edit.columns))
        #expect(read == edit)
        #expect(read.lostValues == ["text": "Oat milk", "notes": "two litres"])
        #expect(!read.isDeletion)
    }

    @Test func itsReasonNamesTheAppAndTheFieldsBothSidesChanged() {
        let edit = LostEdit(itemId: "a", fields: ["text"], lost: ["text": "Oat milk"], text: "Oat milk", sentBy: "DAVx5", at: at)
        #expect(edit.reason == "DAVx5's edit came from an older version: both sides changed text")
    }

    @Test func aLostDeletionSaysWhatChangedSince() {
        let edit = LostEdit(itemId: "a", fields: ["notes"], lost: ["deleted": true], text: "Milk", sentBy: "DAVx5", at: at)
        #expect(edit.isDeletion)
        #expect(edit.reason == "DAVx5's deletion came from an older version: changed since: notes")
    }

    @Test func aRowWithoutAnItemOrWithLostValuesThatAreNoObjectIsNoLostEdit() {
        let good = LostEdit(itemId: "a", fields: [], lost: ["text": "x"], text: "x", sentBy: "DAVx5", at: at).columns
        var noItem = good
        noItem["itemId"] = nil
        var notAnObject = good
        notAnObject["lost"] = "[1, 2]"
        #expect(LostEdit(columns: noItem) == nil)
        #expect(LostEdit(columns: notAnObject) == nil)
    }
}
