import Foundation
import Synchronization
import OfflineSync
import Testing
@testable import TodoKit
import TodoKitTestSupport
@testable import TodoModel
import ServerTestSupport

/// Two devices change the same item; the second refreshes and the dialog decides.
@MainActor
@Suite struct ConflictFlowTests {
    /// Device A and B share an item; A changes it to `aText` and syncs; B changes it to
    /// `bText` and refreshes. Answers B's app once the refresh has asked or finished.
    func bothDevicesEdit(aText: String, bText: String) async throws -> (app: AppRuntime, b: TodoStore, a: TodoStore, itemId: String) {
        let server = try await SharedServerProcess.shared.get().baseURL
        let a = try makeService(server: server)
        let b = try makeService(server: server)
        let item = try await a.items.add("shared")
        try await a.server.sync()
        try await b.server.sync()
        var onA = try #require(try a.items.item(id: item.id))
        onA.text = aText
        _ = try await a.items.save(onA)
        try await a.server.sync()
        var onB = try #require(try b.items.item(id: item.id))
        onB.text = bText
        _ = try await b.items.save(onB)
        let app = AppRuntime.started(b)
        app.send(.sync(.syncRequested))
        try await eventually("dialog or end of sync") { app.state.conflict != nil || !app.state.status.syncing }
        return (app, b, a, item.id)
    }

    /// The dialog is on B's screen.
    func conflictOnDeviceB() async throws -> (app: AppRuntime, b: TodoStore, a: TodoStore, itemId: String) {
        let result = try await bothDevicesEdit(aText: "A's text", bText: "B's text")
        try await eventually("dialog") { result.app.state.conflict != nil }
        return result
    }

    @Test func dialogShowsWhatTheClashingFieldWasAndBothNewValues() async throws {
        let (app, _, _, _) = try await conflictOnDeviceB()
        let fields = try #require(app.state.conflict?.prompt.fields)
        #expect(fields == [ConflictPrompt.Field(name: "text", was: "shared", yours: "B's text", servers: "A's text")])
        #expect(app.state.conflict?.prompt.kind == .edit)
    }

    @Test func useClientPutsThisDevicesValueOnTheServer() async throws {
        let (app, _, a, id) = try await conflictOnDeviceB()
        app.key(.character("c"))
        try await eventually("sync done") { !app.state.status.syncing }
        #expect(app.state.conflict == nil)
        #expect(app.state.status.message == nil)
        try await a.server.sync()
        #expect(try a.items.item(id: id)?.text == "B's text")
        try await eventually("nothing left to push") { app.state.status.pending == 0 }  // the status is read after the sync
    }

    @Test func useClientAsksAgainWhenTheServerChangesMeanwhile() async throws {
        let (app, _, a, id) = try await conflictOnDeviceB()
        // The server moves on again before the person answers.
        var onA = try #require(try a.items.item(id: id))
        onA.text = "A again"
        _ = try await a.items.save(onA)
        try await a.server.sync()
        app.key(.enter)  // Use Client is selected first
        try await eventually("second dialog") { app.state.conflict?.prompt.fields.first?.servers == "A again" }
        app.key(.character("c"))
        try await eventually("sync done") { !app.state.status.syncing }
        try await a.server.sync()
        #expect(try a.items.item(id: id)?.text == "B's text")
    }

    @Test func anAnswerForTheRestOfTheSyncIsNotAskedAgain() async throws {
        let server = try await SharedServerProcess.shared.get().baseURL
        let a = try makeService(server: server)
        let b = try makeService(server: server)
        let items = [try await a.items.add("one"), try await a.items.add("two")]
        try await a.server.sync()
        try await b.server.sync()
        for (device, text) in [(a, "A"), (b, "B")] {
            for item in items {
                var edited = try #require(try device.items.item(id: item.id))
                edited.text = text
                try await device.items.save(edited)
            }
        }
        try await a.server.sync()
        let asked = Mutex(0)
        b.setConflictPolicy(.ask { _ in
            asked.withLock { $0 += 1 }
            return ConflictAnswer(.useServer, applyToAll: true)
        })
        try await b.server.sync()
        #expect(asked.withLock { $0 } == 1)
        #expect(try items.map { try b.items.item(id: $0.id)?.text } == ["A", "A"])
    }

    @Test func twoDevicesEditingDifferentFieldsMergeWithoutADialog() async throws {
        let server = try await SharedServerProcess.shared.get().baseURL
        let a = try makeService(server: server)
        let b = try makeService(server: server)
        let item = try await a.items.add("milk")
        try await a.server.sync()
        try await b.server.sync()
        var onA = try #require(try a.items.item(id: item.id))
        onA.text = "oat milk"
        _ = try await a.items.save(onA)
        try await a.server.sync()
        _ = try await b.items.setComplete(id: item.id, to: true)
        b.setConflictPolicy(.fail)
        try await b.server.sync()
        let merged = try #require(try b.items.item(id: item.id))
        #expect(merged.text == "oat milk" && merged.complete)
        #expect(try b.conflicts.log().first?.resolution == .merged)
        #expect(b.server.status().newConflicts == 1)
        b.conflicts.markSeen()
        #expect(b.server.status().newConflicts == 0)
    }

    @Test func equalValuesRaiseNoDialog() async throws {
        let (app, _, _, _) = try await bothDevicesEdit(aText: "both wrote this", bText: "both wrote this")
        try await eventually("sync done") { !app.state.status.syncing }
        #expect(app.state.conflict == nil)
        #expect(app.state.status.message == nil)
    }
}

/// The dialog's answers reaching the waiting push, over an in-memory outside (no server).
@MainActor
@Suite struct ConflictAnswerFlowTests {
    /// "milk" is queued here; the next sync finds it changed on the server as well.
    func conflictOnScreen() async throws -> (app: AppRuntime, outside: InMemoryEnvironment) {
        let outside = InMemoryEnvironment(["milk"])
        outside.changedHere(TodoItem(id: "0", text: "milk"))
        outside.serverWrites(TodoItem(id: "0", text: "oat milk"))
        outside.conflictOnNextSync(ConflictPrompt(itemId: "0", fields: [.init(name: "text", was: "milk", yours: "milk", servers: "oat milk")]))
        let app = AppRuntime.started(outside)
        app.key(.character("r"))
        try await eventually("dialog") { app.state.conflict != nil }
        return (app, outside)
    }

    @Test func useServerKeepsTheServersValueHere() async throws {
        let (app, outside) = try await conflictOnScreen()
        app.key(.right)
        app.key(.enter)
        try await eventually("sync done") { !app.state.status.syncing }
        #expect(outside.answers == [ConflictAnswer(.useServer)])
        #expect(outside.localItems.map(\.text) == ["oat milk"])
        try await eventually("row") { app.state.list.visibleRows.first??.item.text == "oat milk" }
    }

    @Test func cancelStopsTheSyncAndSaysTheChangeWaits() async throws {
        let (app, outside) = try await conflictOnScreen()
        app.key(.escape)
        try await eventually("sync done") { !app.state.status.syncing }
        #expect(outside.answers == [ConflictAnswer(.cancel)])
        #expect(app.state.conflict == nil)
        #expect(app.state.status.message == "Sync cancelled — 1 change will sync later")
        #expect(outside.pendingIds == ["0"])
    }

    @Test func aSecondQuestionWaitsUntilTheFirstIsAnswered() async throws {
        let outside = InMemoryEnvironment(["milk", "bread"])
        for id in ["0", "1"] { outside.conflictOnNextSync(ConflictPrompt(itemId: id, fields: [], offersApplyToAll: id == "1")) }
        let app = AppRuntime.started(outside)
        app.key(.character("r"))
        try await eventually("first dialog") { app.state.conflict?.prompt.itemId == "0" }
        app.key(.character("c"))
        try await eventually("second dialog") { app.state.conflict?.prompt.itemId == "1" }
        app.key(.character("a"))
        app.key(.character("s"))
        try await eventually("sync done") { !app.state.status.syncing }
        #expect(outside.answers == [ConflictAnswer(.useClient), ConflictAnswer(.useServer, applyToAll: true)])
    }

    @Test func quittingAnswersAWaitingPushWithCancel() async throws {
        let (app, outside) = try await conflictOnScreen()
        app.stop()
        try await eventually("answered") { outside.answers == [ConflictAnswer(.cancel)] }
    }
}

/// The dialog's keys, through the app's key routing.
@Suite struct ConflictDialogKeyTests {
    let prompt = ConflictPrompt(itemId: "x", fields: [])

    func showing() -> ListFixture {
        var app = ListFixture()
        app.send(.conflicts(.conflictRaised(prompt)))
        return app
    }

    @Test func arrowsAndTabMoveBetweenButtons() {
        var app = showing()
        #expect(app.state.conflict?.selected == .useClient)
        app.press(.right)
        #expect(app.state.conflict?.selected == .useServer)
        app.press(.tab)
        #expect(app.state.conflict?.selected == .cancel)
        app.press(.right)
        #expect(app.state.conflict?.selected == .useClient)
        app.press(.left)
        #expect(app.state.conflict?.selected == .cancel)
        #expect(app.send(.key(.enter)) == [.conflicts(.answer(questionId: prompt.id, ConflictAnswer(.cancel)))])
        #expect(app.state.conflict == nil)
    }

    @Test func letterKeysChooseDirectly() {
        for (key, choice) in [("s", ConflictChoice.useServer), ("c", .useClient), ("C", .useClient)] {
            var app = showing()
            #expect(app.send(.key(.character(Character(key)))) == [.conflicts(.answer(questionId: prompt.id, ConflictAnswer(choice)))])
        }
        var app = showing()
        #expect(app.send(.key(.escape)) == [.conflicts(.answer(questionId: prompt.id, ConflictAnswer(.cancel)))])
    }

    @Test func otherKeysDoNothingWhileTheDialogIsUp() {
        var app = showing()
        #expect(app.send(.key(.character("x"))) == [])
        #expect(app.send(.key(.character("q"))) == [])
        #expect(!app.state.shouldQuit)
        #expect(app.state.conflict != nil)
    }

    @Test func conflictsAreAskedOneAtATimeInArrivalOrder() {
        let second = ConflictPrompt(itemId: "y", fields: [])
        var app = showing()
        app.send(.conflicts(.conflictRaised(second)))
        app.press(.character("s"))
        #expect(app.state.conflict?.prompt == second)
    }
}
