import Foundation
import OfflineSync
import Testing
@testable import TodoKit

/// Two devices change the same item; the second refreshes and the dialog decides.
@MainActor
@Suite struct ConflictFlowTests {
    /// Device A and B share an item; A changes it to `aText` and syncs; B changes it to
    /// `bText` and refreshes. Answers B's app once the refresh has asked or finished.
    func bothDevicesEdit(aText: String, bText: String) async throws -> (app: AppViewModel, a: TodoService, itemId: String) {
        let server = try await TodoTestServer.shared.get().baseURL
        let a = try makeService(server: server)
        let b = try makeService(server: server)
        let item = try a.addNow("shared")
        try await a.syncNow()
        try await b.syncNow()
        var onA = try #require(try a.itemNow(id: item.id))
        onA.text = aText
        _ = try a.saveNow(onA)
        try await a.syncNow()
        var onB = try #require(try b.itemNow(id: item.id))
        onB.text = bText
        _ = try b.saveNow(onB)
        let app = AppViewModel(service: b)
        app.start()
        app.list.refresh()
        try await eventually("dialog or end of sync") { app.conflict != nil || !app.list.status.syncing }
        return (app, a, item.id)
    }

    /// The dialog is on B's screen.
    func conflictOnDeviceB() async throws -> (app: AppViewModel, a: TodoService, itemId: String) {
        let result = try await bothDevicesEdit(aText: "A's text", bText: "B's text")
        try await eventually("dialog") { result.app.conflict != nil }
        return result
    }

    @Test func dialogShowsBothValues() async throws {
        let (app, _, _) = try await conflictOnDeviceB()
        let differences = try #require(app.conflict?.prompt.differences)
        #expect(differences == [ConflictPrompt.Difference(field: "text", client: "B's text", server: "A's text")])
    }

    @Test func useClientPutsThisDevicesValueOnTheServer() async throws {
        let (app, a, id) = try await conflictOnDeviceB()
        app.handle(.character("c"))
        try await eventually("sync done") { !app.list.status.syncing }
        #expect(app.conflict == nil)
        #expect(app.list.status.message == nil)
        try await a.syncNow()
        #expect(try a.itemNow(id: id)?.text == "B's text")
        #expect(app.list.status.pending == 0)
    }

    @Test func useServerKeepsTheServersValueHere() async throws {
        let (app, _, id) = try await conflictOnDeviceB()
        app.handle(.right)
        app.handle(.enter)
        try await eventually("sync done") { !app.list.status.syncing }
        #expect(try app.list.service.itemNow(id: id)?.text == "A's text")
        try await eventually("status") { app.list.status.pending == 0 }
    }

    @Test func cancelLeavesTheChangeQueued() async throws {
        let (app, a, id) = try await conflictOnDeviceB()
        app.handle(.escape)
        try await eventually("sync done") { !app.list.status.syncing }
        #expect(app.list.status.message == "Sync cancelled — 1 change will sync later")
        #expect(try app.list.service.itemNow(id: id)?.text == "B's text")
        try await eventually("status") { app.list.status.pending == 1 }
        try await a.syncNow()
        #expect(try a.itemNow(id: id)?.text == "A's text")
    }

    @Test func useClientAsksAgainWhenTheServerChangesMeanwhile() async throws {
        let (app, a, id) = try await conflictOnDeviceB()
        // The server moves on again before the person answers.
        var onA = try #require(try a.itemNow(id: id))
        onA.text = "A again"
        _ = try a.saveNow(onA)
        try await a.syncNow()
        app.handle(.enter)  // Use Client is selected first
        try await eventually("second dialog") { app.conflict != nil }
        #expect(app.conflict?.prompt.differences.first?.server == "A again")
        app.handle(.character("c"))
        try await eventually("sync done") { !app.list.status.syncing }
        try await a.syncNow()
        #expect(try a.itemNow(id: id)?.text == "B's text")
    }

    @Test func equalValuesRaiseNoDialog() async throws {
        let (app, _, _) = try await bothDevicesEdit(aText: "both wrote this", bText: "both wrote this")
        try await eventually("sync done") { !app.list.status.syncing }
        #expect(app.conflict == nil)
        #expect(app.list.status.message == nil)
    }
}

/// The dialog's keys.
@MainActor
@Suite struct ConflictDialogViewModelTests {
    let prompt = ConflictPrompt(itemId: "x", differences: [], answer: { _ in })

    @Test func arrowsAndTabMoveBetweenButtons() {
        let dialog = ConflictDialogViewModel(prompt: prompt)
        #expect(dialog.selected == .useClient)
        _ = dialog.handle(.right)
        #expect(dialog.selected == .useServer)
        _ = dialog.handle(.tab)
        #expect(dialog.selected == .cancel)
        _ = dialog.handle(.right)
        #expect(dialog.selected == .useClient)
        _ = dialog.handle(.left)
        #expect(dialog.selected == .cancel)
        #expect(dialog.handle(.enter) == .cancel)
    }

    @Test func letterKeysChooseDirectly() {
        let dialog = ConflictDialogViewModel(prompt: prompt)
        #expect(dialog.handle(.character("s")) == .useServer)
        #expect(dialog.handle(.character("c")) == .useClient)
        #expect(dialog.handle(.escape) == .cancel)
        #expect(dialog.handle(.character("x")) == nil)
    }
}
