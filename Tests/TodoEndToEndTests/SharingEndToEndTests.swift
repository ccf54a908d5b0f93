import Foundation
import ServerTestSupport
import Testing

/// Two people and a shared list in real terminals (tmux) through a real server: a live add, a
/// merged edit, a clash naming the other person, a viewer refused, a removal that empties the
/// other screen.
@Suite(.serialized) struct SharingEndToEndTests {
    typealias Household = SharingCommandTests.Household

    /// ann's Groceries with milk, shared with bob in `role`.
    func groceries(role: String = "editor") async throws -> Household {
        let h = try await Household.make()
        try await h.todo(["add", "milk", "--list", "Groceries"], h.ann)
        let shared = try await h.todo(["share", "Groceries", "--with", "bob", "--role", role], h.ann)
        guard shared.status == 0 else { throw ServerStartError(description: shared.err) }
        return h
    }

    func ui(_ h: Household, _ home: URL, live: Bool) throws -> TmuxSession {
        try TmuxSession(command: [TodoCLI.binary, "--server", h.url] + (live ? [] : ["--no-live"]),
                        environment: TodoCLI.environment(home: home).merging(["LANG": "C.UTF-8"]) { $1 }, width: TmuxSession.wideEnoughForNotices)
    }

    func milkId(_ h: Household) async throws -> String {
        let out = try await h.todo(["list", "--json"], h.ann).out
        let items = (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [[String: Any]] ?? []
        guard let id = items.first(where: { $0["text"] as? String == "milk" })?["id"] as? String else {
            throw ServerStartError(description: "no milk in \(out)")
        }
        return id
    }

    /// Renames the selected item in the editor, then syncs (`r`).
    func renameSelected(_ ui: TmuxSession, to text: String) async throws {
        try ui.send("Enter")
        try await ui.waitFor("Todo Item")
        try ui.send("C-u")
        try ui.type(text)
        try ui.send("Enter")
        try ui.send("r")
    }

    @Test func whatOnePersonAddsShowsLiveOnTheOthersScreen() async throws {
        let h = try await groceries()
        defer { h.server.stop() }
        let ui = try ui(h, h.bob, live: true)
        defer { ui.kill() }
        try await ui.waitUntil("the shared list, live") { $0.contains("Groceries 👥2") && $0.contains("[ ] milk") && $0.contains(" live · ") }
        try await h.todo(["add", "bread", "--list", "Groceries"], h.ann)
        try await h.todo(["sync"], h.ann)
        try await ui.waitFor("[ ] bread", timeout: 10)
    }

    @Test func editsOfDifferentFieldsMergeAndAClashNamesTheOtherPerson() async throws {
        let h = try await groceries()
        defer { h.server.stop() }
        let id = try await milkId(h)
        let ui = try ui(h, h.bob, live: false)
        defer { ui.kill() }
        try ui.send("r")
        try await ui.waitUntil("the first sync over") { $0.contains("[ ] milk") && TmuxSession.isIdle($0) }
        // ann sets a priority while bob renames: both stay.
        try await h.todo(["edit", id, "--priority", "high"], h.ann)
        try await h.todo(["sync"], h.ann)
        try await renameSelected(ui, to: "oat milk")
        try await ui.waitUntil("merged, the sync over") {
            $0.contains("[ ] oat milk") && $0.contains("!!!") && TmuxSession.isSettled($0)
        }
        // Then both rename it: bob's screen asks, naming ann.
        try await h.todo(["sync"], h.ann)
        try await h.todo(["edit", id, "--text", "soy milk"], h.ann)
        try await h.todo(["sync"], h.ann)
        try await renameSelected(ui, to: "rice milk")
        // The dialog reaches the terminal a part at a time: its last choice says it is whole.
        let dialog = try await ui.waitUntil("the whole dialog") { $0.contains("Server Conflict") && $0.contains("Use Server") }
        #expect(dialog.contains("soy milk (changed by ann at"), "\(dialog)")
        try ui.send("s")
        try await ui.waitFor("[ ] soy milk")
    }

    @Test func sharingFromTheDialogKeepsTheItemSoAnEarlierUndoStepStillTakesItBack() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        try await h.todo(["add", "milk", "--list", "Groceries"], h.ann)
        let id = try await milkId(h)
        let ui = try ui(h, h.ann, live: false)
        defer { ui.kill() }
        try await ui.waitFor("Groceries")
        try ui.send("]", "]", "]", "]")  // All → Inbox → Today → Upcoming → Groceries
        try await ui.waitUntil("the Groceries list") { $0.split(separator: "\n").first?.contains("Groceries") == true && $0.contains("[ ] milk") }
        try await renameSelected(ui, to: "oat milk")
        try await ui.waitFor("[ ] oat milk")
        try ui.send("s")
        try await ui.waitUntil("the members") { $0.contains("Members:") && $0.contains("owner") }
        try ui.type("bob")
        try await ui.waitFor("With:  bob")
        try ui.send("Enter")
        try await ui.waitFor("Shared with bob as editor")
        try ui.send("Escape")
        try await ui.waitFor("Groceries 👥2")
        // The rename, made before the share, is one undo step: it still names the item.
        try ui.send("u")
        try await ui.waitUntil("the rename undone") { $0.contains("[ ] milk") && !$0.contains("oat milk") }
        try await ui.pushPendingChanges()
        #expect(try await h.todo(["sync"], h.bob).status == 0)
        let bobs = try JSONSerialization.jsonObject(with: Data(try await h.todo(["list", "--json"], h.bob).out.utf8)) as? [[String: Any]] ?? []
        #expect(bobs.map { $0["id"] as? String } == [id])
        #expect(bobs.map { $0["text"] as? String } == ["milk"])
    }

    @Test func aViewerIsRefusedAndARemovalEmptiesTheirScreen() async throws {
        let h = try await groceries(role: "viewer")
        defer { h.server.stop() }
        let ui = try ui(h, h.bob, live: false)
        defer { ui.kill() }
        try ui.send("r")
        try await ui.waitFor("Groceries 👥2")
        try ui.send("]", "]", "]", "]")  // All → Inbox → Today → Upcoming → Groceries
        try await ui.waitUntil("the read-only list") { $0.split(separator: "\n").first?.contains("Groceries · read-only") == true }
        try ui.send("a")
        try await ui.waitFor("shared with you read-only")
        try ui.send("Space")
        // The notice from `a` is still up: `r` clears it, which says Space, before it, was read.
        try ui.send("r")
        try await ui.waitUntil("Space read, the sync over") {
            !$0.contains("shared with you read-only") && TmuxSession.isSettled($0)
        }
        #expect(try ui.screen().contains("[ ] milk"))
        try await h.todo(["unshare", "Groceries", "--with", "bob"], h.ann)
        try ui.send("r")
        try await ui.waitUntil("the list gone") { !$0.contains("milk") && !$0.contains("Groceries") }
    }

    /// bob imported ann's export, then ann shared the list: bob's device holds the id twice.
    @Test func twoListsHoldingOneIdBothShowAndSpaceCompletesTheRowUnderTheCursor() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        let id = try await h.todo(["add", "milk", "--list", "Groceries"], h.ann).out.trimmingCharacters(in: .whitespacesAndNewlines)
        let export = try TempDir.make().appendingPathComponent("groceries.json")
        try Data(try await h.todo(["export"], h.ann).out.utf8).write(to: export)
        try await h.todo(["import", export.path], h.bob)
        try await h.todo(["edit", id, "--text", "bob's milk"], h.bob)
        try await h.todo(["share", "Groceries", "--with", "bob"], h.ann)
        let ui = try ui(h, h.bob, live: false)
        defer { ui.kill() }
        try ui.send("r")
        try await ui.waitUntil("both rows, the sync over") { $0.contains("[ ] bob's milk") && $0.contains("[ ] milk") && TmuxSession.isIdle($0) }
        try ui.send("j", "Space")  // the second row: ann's milk, in the shared list
        let done = try await ui.waitUntil("ann's milk done") { $0.contains("Completed           1") && !$0.contains("[ ] milk") }
        #expect(done.contains("[ ] bob's milk") && done.contains("Groceries           1") && done.contains("Groceries (ann) 👥2 0"))
        try await ui.pushPendingChanges()
        try await h.todo(["sync"], h.ann)
        let anns = try JSONSerialization.jsonObject(with: Data(try await h.todo(["list", "--all", "--json"], h.ann).out.utf8)) as? [[String: Any]] ?? []
        #expect(anns.map { $0["complete"] as? Bool } == [true])
    }
}
