import Foundation
import OfflineSync
import TableProtocol
import Testing
@testable import TodoKit
import TodoKitTestSupport
@testable import TodoModel

/// The conflict history screen and the dialog's wording and "apply to all", as pure updates.
@Suite struct ConflictHistoryTests {
    static func record(_ id: Int64, _ text: String, resolution: ConflictLogEntry.Resolution, lost: JSONObject) -> ConflictRecord {
        ConflictRecord(ConflictLogEntry(id: id, table: "TodoItem", itemId: "item\(id)", kind: .edit, resolution: resolution, at: Date(),
                                        fields: ["text"], base: nil, local: ["text": .string(text)], server: nil, lost: lost))
    }

    let records = [record(2, "bread", resolution: .server, lost: ["text": "bread"]), record(1, "milk", resolution: .merged, lost: [:])]

    func showingHistory() -> ListFixture {
        var app = ListFixture(["a"])
        app.press(.character("h"))
        app.send(.conflicts(.history(.loaded(records))))
        return app
    }

    @Test func hOpensTheHistoryAndWatchesTheLog() {
        var app = ListFixture(["a"])
        #expect(app.send(.key(.character("h"))) == [.conflicts(.observeLog)])
        #expect(app.state.history != nil)
    }

    @Test func enterRestoresTheSelectedEntry() {
        var app = showingHistory()
        #expect(app.send(.key(.enter)) == [.conflicts(.restore(id: 2))])
    }

    @Test func anEntryThatLostNothingSaysSoInsteadOfRestoring() {
        var app = showingHistory()
        app.press(.down)
        #expect(app.send(.key(.enter)) == [])
        #expect(app.state.history?.notice == "Nothing lost in this one — nothing to restore")
    }

    @Test func aRestoreReloadsTheQueuesState() {
        var app = showingHistory()
        let effects = app.send(.conflicts(.history(.restored(error: nil))), answerReads: false)
        #expect(effects == [.sync(.loadStatus)])  // the log and the list are live queries
        #expect(app.state.history?.notice == "Restored — the values are back as a local change")
    }

    @Test func aRestoreFinishedAfterTheHistoryClosedStillReloadsTheQueuesState() {
        var app = showingHistory()
        app.press(.escape)
        #expect(app.state.history == nil)
        #expect(app.send(.conflicts(.history(.restored(error: nil))), answerReads: false) == [.sync(.loadStatus)])
    }

    @Test func escapeGoesBackToTheListAndStopsWatchingTheLog() {
        var app = showingHistory()
        #expect(app.send(.key(.escape)) == [.conflicts(.stopObservingLog)])
        #expect(app.state.history == nil)
    }

    @Test func openingTheHistoryClearsTheBadge() {
        var app = ListFixture(["a"], server: "http://s")
        app.send(.sync(.statusLoaded(SyncSnapshot(pending: 0, pendingItems: [], lastSync: nil, newConflicts: 3))))
        #expect(app.state.status.newConflicts == 3)
        app.press(.character("h"))
        #expect(app.state.status.newConflicts == 0)
    }

    @Test func deletionConflictsHaveTheirOwnWords() {
        let deleted = ConflictDialogViewModel(prompt: ConflictPrompt(itemId: "x", kind: .deletedOnServer, fields: []))
        #expect(deleted.title == "Deleted on the Server")
        #expect(deleted.buttons.map(\.title) == ["Keep Mine", "Delete It", "Cancel"])
        let mine = ConflictDialogViewModel(prompt: ConflictPrompt(itemId: "x", kind: .deletedLocally, fields: []))
        #expect(mine.buttons.map(\.title) == ["Delete It", "Keep Theirs", "Cancel"])
    }

    @Test func applyToAllIsOfferedFromTheSecondConflictAndGoesWithTheAnswer() {
        let first = ConflictPrompt(itemId: "x", fields: [])
        var app = ListFixture(["a"])
        app.send(.conflicts(.conflictRaised(first)))
        app.press(.character("a"))
        #expect(app.send(.key(.character("s"))) == [.conflicts(.answer(questionId: first.id, ConflictAnswer(.useServer)))])
        let second = ConflictPrompt(itemId: "y", fields: [], offersApplyToAll: true)
        app.send(.conflicts(.conflictRaised(second)))
        app.press(.character("a"))
        #expect(app.send(.key(.character("s"))) == [.conflicts(.answer(questionId: second.id, ConflictAnswer(.useServer, applyToAll: true)))])
    }
}

/// Notices give way to newer news.
@Suite struct StatusMessageTests {
    @Test func aSyncNoticeGoesWithTheNextSuccessfulWrite() {
        var app = ListFixture(["a"], server: "http://s")
        app.send(.sync(.synced(.failed(message: "Sync cancelled — 1 change will sync later", reason: .other))))
        #expect(app.state.status.message == "Sync cancelled — 1 change will sync later")
        app.send(.written(error: nil))
        #expect(app.state.status.message == nil)
    }

    @Test func aFailedWriteSaysWhy() {
        var app = ListFixture(["a"], server: "http://s")
        app.send(.written(error: "The item no longer exists"))
        #expect(app.state.status.message == "The item no longer exists")
    }
}

/// The history names who changed the server's side, and says why a change was not sent.
@Suite struct ConflictRecordWordingTests {
    @Test func aSettledConflictNamesWhoChangedTheServersSide() {
        let entry = ConflictLogEntry(table: "TodoItem", itemId: "m", kind: .edit, resolution: .server, at: Date(), fields: ["text"],
                                     base: nil, local: ["text": "oat"], server: ["text": "soy", "updatedBy": "bob"], lost: ["text": "oat"])
        #expect(ConflictRecord(entry).summary == "kept the server's (theirs by bob)")
    }

    @Test func aChangeThatWasNotSentSaysWhy() {
        let entry = ConflictLogEntry(table: "TodoItem", itemId: "m", kind: .deletedOnServer, resolution: .notSent, at: Date(), fields: [],
                                     base: nil, local: ["text": "eggs"], server: nil, lost: ["text": "eggs"], reason: "You left the list “Groceries”")
        #expect(ConflictRecord(entry).summary == "not sent: You left the list “Groceries”")
    }
}
