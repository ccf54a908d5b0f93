import Foundation
import OfflineSync
import Testing
import TodoKit
import TodoKitTestSupport
import TodoModel

/// The runtime with an in-memory outside: keys in, effects run, answers back as messages, and
/// what the person sees; no database, no server, a test clock.
@MainActor
@Suite struct RuntimeFlowTests {
    @Test func anAddedItemArrivesThroughTheListsLiveQuery() async throws {
        let outside = InMemoryEnvironment(["bread"])
        let app = AppRuntime.started(outside, server: nil)
        app.key(.character("a"))
        app.type("milk")
        app.key(.enter)
        try await eventually("row") { app.state.list.visibleRows.compactMap { $0?.item.text } == ["bread", "milk"] }
        try await eventually("status") { app.state.status.pending == 1 }
    }

    /// A benchmark times a key until the loop has applied it: answers applied meanwhile (rows,
    /// counts, the day) are not counted as its.
    @Test func theLoopCountsTheMessagesGivenToSendAndNotTheAnswers() async throws {
        let outside = InMemoryEnvironment(["bread"])
        let app = AppRuntime.started(outside, server: nil)
        try await eventually("row") { app.state.list.selectedItem != nil && app.state.today != nil }
        #expect(app.appliedSentMessages == 2)  // the resize and `.started`
        app.key(.character("j"))
        try await eventually("the key applied") { app.appliedSentMessages == 3 }
    }

    @Test func uUndoesTheNewestChangeAndSaysWhat() async throws {
        let outside = InMemoryEnvironment(["bread"])
        let app = AppRuntime.started(outside, server: nil)
        try await eventually("row") { app.state.list.selectedItem != nil }
        app.key(.character("d"))
        try await eventually("asked") { !app.state.layers.isEmpty }  // after its subtasks are counted
        app.key(.character("y"))
        try await eventually("deleted") { outside.localItems.isEmpty }
        app.key(.character("u"))
        try await eventually("undone") { app.state.status.message == "Undid delete of “bread”" }
        try await eventually("back") { app.state.list.visibleRows.first??.item.text == "bread" }
    }

    @Test func theSpinnerTurnsOnTheClocksTicksOnly() async throws {
        let outside = InMemoryEnvironment()
        outside.conflictOnNextSync(ConflictPrompt(itemId: "x", fields: []))  // holds the sync open
        let app = AppRuntime.started(outside)
        try await eventually("the day's timer") { app.state.today != nil && outside.clock.waiting == 1 }
        app.key(.character("r"))
        try await eventually("timer set") { app.state.status.syncing && outside.clock.waiting == 2 }
        #expect(app.state.status.spinnerFrame == 0)
        outside.clock.advance(by: .seconds(SyncStatus.spinnerInterval))
        try await eventually("ticked") { app.state.status.spinnerFrame == 1 }
        app.key(.escape)
        try await eventually("sync over") { !app.state.status.syncing }
        outside.clock.advance(by: .seconds(1))
        try await eventually("only the day's timer left") { outside.clock.waiting == 1 }
        #expect(app.state.status.spinnerFrame == 1)
    }

    @Test func liveSyncsStatesReachTheStatusBarAndLStopsIt() async throws {
        let outside = InMemoryEnvironment()
        let app = AppRuntime.started(outside, live: true)
        try await eventually("live started") { outside.liveStarts == 1 }
        outside.sendLive(.state(.live))
        try await eventually("live") { app.state.status.live == .live }
        app.key(.character("l"))
        try await eventually("off") { app.state.status.live == nil }
        outside.sendLive(.state(.offline(retryIn: 3, reason: "refused")))  // the stopped feed's last words change nothing
        app.key(.character("l"))
        try await eventually("restarted") { outside.liveStarts == 2 }
        #expect(app.state.status.live == .connecting)
    }

    @Test func theDayIsReadAtStartAndAgainWhenItEnds() async throws {
        let outside = InMemoryEnvironment()
        let app = AppRuntime.started(outside)
        try await eventually("today") { app.state.today?.text == "2026-11-24" && outside.clock.waiting == 1 }
        outside.setToday(DueDate("2026-11-25")!)
        outside.clock.advance(by: .seconds(86_401))
        try await eventually("tomorrow") { app.state.today?.text == "2026-11-25" }
    }

    @Test func aLongPullsProgressShows() async throws {
        let outside = InMemoryEnvironment()
        let app = AppRuntime.started(outside, live: true)
        try await eventually("live started") { outside.liveStarts == 1 }
        outside.sendProgress(PullProgress(received: 1_000, total: 5_000))
        try await eventually("progress") { app.state.status.pullProgress == PullProgress(received: 1_000, total: 5_000) }
    }
}

/// Saving the editor over an item changed meanwhile on another device, in the same field.
@MainActor
@Suite struct EditClashFlowTests {
    /// The editor is open on "milk" with "oat milk" typed; a pull changed the text to "soy milk".
    func clashOnScreen() async throws -> (AppRuntime, InMemoryEnvironment) {
        let outside = InMemoryEnvironment(["milk"])
        let app = AppRuntime.started(outside)
        try await eventually("row") { app.state.list.selectedItem != nil }
        app.key(.enter)
        app.key(.control("u"))
        app.type("oat milk")
        try await eventually("typed") { app.state.editor?.text.text == "oat milk" }
        outside.pulled(TodoItem(id: "0", text: "soy milk"))
        app.key(.enter)
        try await eventually("dialog") { app.state.conflict != nil }
        return (app, outside)
    }

    @Test func theDialogShowsBothEdits() async throws {
        let (app, _) = try await clashOnScreen()
        #expect(app.state.conflict?.prompt.fields == [.init(name: "text", was: "milk", yours: "oat milk", servers: "soy milk")])
        #expect(app.state.editor == nil)
    }

    @Test func useClientSavesTheEditOverTheOtherDevicesChange() async throws {
        let (app, outside) = try await clashOnScreen()
        app.key(.character("c"))
        try await eventually("saved") { outside.localItems.map(\.text) == ["oat milk"] }
        #expect(outside.pendingIds == ["0"])
    }

    @Test func useServerKeepsTheOtherDevicesChangeAndSaysSo() async throws {
        let (app, outside) = try await clashOnScreen()
        app.key(.character("s"))
        try await eventually("notice") { app.state.status.message == "Kept the version from the other device; your edit was dropped" }
        #expect(outside.localItems.map(\.text) == ["soy milk"])
    }

    @Test func cancelReopensTheEditorWithTheEdit() async throws {
        let (app, outside) = try await clashOnScreen()
        app.key(.escape)
        try await eventually("editor") { app.state.editor != nil }
        #expect(app.state.editor?.text.text == "oat milk")
        #expect(app.state.editor?.original.text == "soy milk")
        #expect(outside.localItems.map(\.text) == ["soy milk"])
    }
}

/// Quick add from the full-screen prompt, over an in-memory outside.
@MainActor
@Suite struct QuickAddFlowTests {
    @Test func aPlusListWordMakesTheListAndTheItemShowsInIt() async throws {
        let outside = InMemoryEnvironment()
        let app = AppRuntime.started(outside, server: nil)
        try await eventually("today") { app.state.today != nil }
        app.key(.character("a"))
        app.type("fix tap +Home #diy !high")
        app.key(.enter)
        try await eventually("list") { app.state.lists.map(\.name) == ["Home"] }
        let item = try #require(outside.localItems.first)
        #expect(item.text == "fix tap" && item.tags == ["diy"] && item.priority == .high && item.listId == app.state.lists.first?.id)
    }
}
