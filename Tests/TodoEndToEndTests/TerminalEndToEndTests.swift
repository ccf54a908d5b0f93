import Foundation
import ServerTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The full-screen client in a real terminal (tmux) against a real server.
@Suite(.serialized) struct TerminalEndToEndTests {
    /// Items on the server (deleted ones included).
    func serverItems(_ port: Int) async throws -> [[String: Any]] {
        try await ServerProcess.items(port: port, table: "TodoItem")
    }

    /// The UI on a local-only device of a fresh home, once drawn.
    func localUI() async throws -> TmuxSession {
        let ui = try TmuxSession(command: [TodoCLI.binary, "--device", "solo"], environment: TodoCLI.environment(home: try TempDir.make()))
        do {
            try await ui.waitFor("local only")
        } catch {
            ui.kill()
            throw error
        }
        return ui
    }

    /// Polls the server's items until they satisfy a condition.
    func waitForServer(_ port: Int, _ what: String, _ condition: ([[String: Any]]) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(10)
        while try await !condition(serverItems(port)) {
            guard Date() < deadline else { throw ServerStartError(description: "timed out waiting for \(what) on the server") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The UI on a device; `live: false` (`--no-live`) for tests of manual sync, which must not race a live pull.
    func ui(home: URL, port: Int, device: String, live: Bool = false) throws -> TmuxSession {
        try TmuxSession(
            command: [TodoCLI.binary, "--server", "http://127.0.0.1:\(port)", "--device", device] + (live ? [] : ["--no-live"]),
            environment: TodoCLI.environment(home: home).merging(["LANG": "C.UTF-8"]) { $1 })
    }

    @Test func xExportsEveryItemToTheFileNamedAndTheStatusBarSaysSo() async throws {
        let ui = try await localUI()
        defer { ui.kill() }
        for text in ["buy milk", "call mum"] {
            try ui.send("a")
            try ui.type(text)
            try ui.send("Enter")
            try await ui.waitFor(text)
        }
        let file = try TempDir.make().appendingPathComponent("items.txt")
        try ui.send("x")
        try await ui.waitFor("Export to: ~/todo-export.json")
        try ui.send("C-u")
        try ui.type(file.path)
        try await ui.waitFor("every item as todo.txt")
        try ui.send("Enter")
        try await ui.waitFor("Exported 2 items to")
        #expect(try String(contentsOf: file, encoding: .utf8).split(separator: "\n").sorted() == ["buy milk", "call mum"])
    }

    @Test func offlineEditsReachTheServerAfterRefresh() async throws {
        let home = try TempDir.make()
        let port = try freePort()
        let ui = try ui(home: home, port: port, device: "laptop")
        defer { ui.kill() }
        try await ui.waitFor("0 changes pending")
        // Add three items with the server down.
        for text in ["buy milk", "call mum", "write report"] {
            try ui.send("a")
            try ui.type(text)
            try ui.send("Enter")
            try await ui.waitFor(text)
        }
        // Edit "buy milk" (first row) in the editor.
        try ui.send("g", "Enter")
        try await ui.waitFor("Todo Item")
        try ui.type(" and eggs")
        try ui.send("Enter")
        try await ui.waitFor("buy milk and eggs")
        // Complete "call mum" (second row): it leaves the default view.
        try ui.send("j", "Space")
        try await ui.waitUntil("call mum hidden") { !$0.contains("call mum") }
        // Delete "write report".
        try ui.send("G", "d")
        try await ui.waitFor("(y/n)")
        try ui.send("y")
        try await ui.waitUntil("report deleted") { !$0.contains("write report") }
        try ui.send("r")
        try await ui.waitFor("Offline — ")
        // Start the server and refresh.
        // A later --port wins over the harness's --port 0.
        let server = try await ServerProcess.start(arguments: ["--port", "\(port)", "--database", home.appendingPathComponent("server.sqlite").path])
        defer { server.stop() }
        try ui.send("C-r")
        try await ui.waitFor("0 changes pending")
        try await ui.waitFor("online")
        let items = try await serverItems(port)
        let live = items.filter { ($0["deleted"] as? Bool) == false }
        #expect(Set(live.compactMap { $0["text"] as? String }) == ["buy milk and eggs", "call mum"])
        #expect(live.first { $0["text"] as? String == "call mum" }?["complete"] as? Bool == true)
        #expect(!items.contains { $0["text"] as? String == "write report" && ($0["deleted"] as? Bool) == false })
    }

    @Test func aServerThatWantsAnAccountOpensTheSignInDialogAndSigningInSyncs() async throws {
        let home = try TempDir.make()
        let database = home.appendingPathComponent("server.sqlite").path
        let server = try await ServerProcess.start(arguments: ["--database", database, "--auth", "required"])
        defer { server.stop() }
        _ = try await ServerProcess.runToExit(arguments: ["users", "add", "ann", "--password-stdin", "--database", database], input: "pw one two\n")
        let ui = try ui(home: home, port: server.port, device: "laptop", live: true)
        defer { ui.kill() }
        try await ui.waitFor("0 changes pending")
        try ui.send("a")
        try ui.type("made before signing in")
        try ui.send("Enter", "r")
        try await ui.waitFor("signed out")
        try await ui.waitFor("Sign in to")
        try ui.type("ann")
        try ui.send("Tab")
        try ui.type("pw one two")
        let masked = try await ui.waitFor("••••••")
        #expect(!masked.contains("pw one two"))
        try ui.send("Enter")
        try await ui.waitFor("ann @ http://127.0.0.1:\(server.port)")
        try await ui.waitFor("0 changes pending")
        #expect(try await ui.screen().contains("made before signing in"))
    }

    /// Device A (headless) and device B (the UI) both change "shared"; B refreshes.
    func conflict() async throws -> (ui: TmuxSession, server: ServerProcess, home: URL) {
        let home = try TempDir.make()
        let server = try await ServerProcess.start(arguments: ["--database", home.appendingPathComponent("server.sqlite").path])
        let url = "http://127.0.0.1:\(server.port)"
        let id = try await TodoCLI.run(["add", "shared", "--server", url, "--device", "a"], home: home).out.trimmingCharacters(in: .whitespacesAndNewlines)
        try await TodoCLI.run(["sync", "--server", url, "--device", "a"], home: home)
        let ui = try ui(home: home, port: server.port, device: "b")
        try await ui.waitFor("0 changes pending")
        try ui.send("r")
        try await ui.waitFor("shared")
        try await ui.waitFor("synced")
        try await TodoCLI.run(["edit", id, "--text", "from A", "--server", url, "--device", "a"], home: home)
        try await TodoCLI.run(["sync", "--server", url, "--device", "a"], home: home)
        try ui.send("Enter")
        try await ui.waitFor("Todo Item")
        try ui.send("End", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
        try ui.type("from B")
        try ui.send("Enter")
        try await ui.waitFor("from B")
        try ui.send("r")
        try await ui.waitFor("Server Conflict")
        // The dialog reaches tmux a part at a time: read it once its buttons, below the rest, are there.
        try await ui.waitFor("Use Server")
        let screen = try ui.screen()
        #expect(screen.contains("yours:    from B"))
        #expect(screen.contains("server's: from A"))
        #expect(screen.contains("Use Client") && screen.contains("Use Server") && screen.contains("Cancel"))
        return (ui, server, home)
    }

    func serverText(_ port: Int) async throws -> String? {
        try await serverItems(port).first?["text"] as? String
    }

    @Test func conflictUseClientPutsTheClientValueOnTheServer() async throws {
        let (ui, server, _) = try await conflict()
        defer { ui.kill(); server.stop() }
        try ui.send("c")
        try await ui.waitUntil("dialog closed") { !$0.contains("Server Conflict") }
        try await ui.waitFor("0 changes pending")
        #expect(try await serverText(server.port) == "from B")
        #expect(try ui.screen().contains("from B"))
    }

    @Test func conflictUseServerKeepsTheServerValue() async throws {
        let (ui, server, _) = try await conflict()
        defer { ui.kill(); server.stop() }
        try ui.send("s")
        // "from A" is in the dialog too: the list shows it once the dialog is gone and the sync over.
        try await ui.waitUntil("the server's value kept") {
            !$0.contains("Server Conflict") && $0.contains("from A") && !$0.contains("from B") && TmuxSession.isSettled($0)
        }
        #expect(try await serverText(server.port) == "from A")
    }

    @Test func theHistoryShowsWhatLostAndEnterRestoresIt() async throws {
        let (ui, server, _) = try await conflict()
        defer { ui.kill(); server.stop() }
        try ui.send("s")
        try await ui.waitFor("1 conflict settled (h)")
        try ui.send("h")
        try await ui.waitFor("Conflict history")
        try await ui.waitFor("lost: text \"from B\"")
        try ui.send("Enter")
        try await ui.waitFor("Restored")
        try ui.send("Escape")
        // The history draws the status bar too, and names "from B" itself: the list must be back.
        try await ui.waitUntil("the list, restored") {
            !$0.contains("Conflict history") && TmuxSession.pendingCount(on: $0) == 1 && $0.contains("from B")
        }
    }

    @Test func conflictCancelLeavesTheChangePending() async throws {
        let (ui, server, _) = try await conflict()
        defer { ui.kill(); server.stop() }
        try ui.send("Escape")
        try await ui.waitFor("Sync cancelled")
        try await ui.waitFor("1 change pending")
        #expect(try await serverText(server.port) == "from A")
        #expect(try ui.screen().contains("from B"))
    }

    @Test func liveShowsARemoteChangeWithNoKeyPressed() async throws {
        let home = try TempDir.make()
        let server = try await ServerProcess.start(arguments: ["--database", home.appendingPathComponent("server.sqlite").path])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        try await TodoCLI.run(["add", "already there", "--server", url, "--device", "a"], home: home)
        try await TodoCLI.run(["sync", "--server", url, "--device", "a"], home: home)
        let ui = try ui(home: home, port: server.port, device: "b", live: true)
        defer { ui.kill() }
        // Opened on an existing list, it shows it without a refresh.
        try await ui.waitFor("already there")
        try await ui.waitFor(" live · ")
        try await TodoCLI.run(["add", "made on A", "--server", url, "--device", "a"], home: home)
        try await TodoCLI.run(["sync", "--server", url, "--device", "a"], home: home)
        try await ui.waitFor("made on A", timeout: 5)
        // And B's own change leaves by itself.
        try ui.send("a")
        try ui.type("made on B")
        try ui.send("Enter")
        try await waitForServer(server.port, "B's item") { $0.contains { $0["text"] as? String == "made on B" } }
    }

    @Test func aChangeArrivingWhileEditingNeverOverwritesTheTypedText() async throws {
        let home = try TempDir.make()
        let server = try await ServerProcess.start(arguments: ["--database", home.appendingPathComponent("server.sqlite").path])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        let id = try await TodoCLI.run(["add", "shared", "--server", url, "--device", "a"], home: home).out.trimmingCharacters(in: .whitespacesAndNewlines)
        try await TodoCLI.run(["sync", "--server", url, "--device", "a"], home: home)
        let ui = try ui(home: home, port: server.port, device: "b", live: true)
        defer { ui.kill() }
        try await ui.waitFor("shared")
        try await ui.waitFor(" live · ")
        try ui.send("Enter")
        try await ui.waitFor("Todo Item")
        try ui.type(" by B")
        try await ui.waitFor("shared by B")
        try await TodoCLI.run(["edit", id, "--text", "shared by A", "--server", url, "--device", "a"], home: home)
        try await TodoCLI.run(["sync", "--server", url, "--device", "a"], home: home)
        // The pull lands: the editor says so and still has the typed text.
        try await ui.waitFor("Changed on another device")
        #expect(try ui.screen().contains("shared by B"))
        try ui.send("Enter")
        try await ui.waitFor("Server Conflict")
        // Cancel goes back to the editor with the typed text, now on top of A's version.
        try ui.send("Escape")
        try await ui.waitFor("Not saved")
        try ui.send("Enter")
        try await waitForServer(server.port, "B's text") { $0.first?["text"] as? String == "shared by B" }
    }

    @Test func ctrlUInTheEditorClearsTheOldTextBeforeRetyping() async throws {
        let ui = try await localUI()
        defer { ui.kill() }
        try ui.send("a")
        try ui.type("old title")
        try ui.send("Enter")
        // The row is in the list (not just typed in the prompt) and the status bar counts it.
        try await ui.waitUntil("the item saved") { $0.contains("[ ] old title") && $0.contains("1 change pending") }
        try ui.send("g", "Enter")
        try await ui.waitFor("Todo Item")
        try ui.send("C-u")
        try ui.type("new title")
        try await ui.waitUntil("the field holds only the new text") { $0.contains("new title") && !$0.contains("old title") }
        try ui.send("Enter")
        // The row itself, not just the status line's word for the save.
        try await ui.waitUntil("the list shows the new text") { $0.contains("to do · 1") && $0.contains("[ ] new title") }
        #expect(!(try ui.screen().contains("old title")))
    }

    @Test func uUndoesADeleteAndAnAddAfterARestartAndShiftURedoes() async throws {
        let home = try TempDir.make()
        let environment = TodoCLI.environment(home: home)
        var ui = try TmuxSession(command: [TodoCLI.binary, "--device", "solo"], environment: environment)
        defer { ui.kill() }
        try await ui.waitFor("local only")
        try ui.send("a")
        try ui.type("keep me")
        try ui.send("Enter")
        try await ui.waitFor("[ ] keep me")
        try ui.send("d")
        try await ui.waitFor("(y/n)")
        try ui.send("y")
        try await ui.waitUntil("the item deleted") { !$0.contains("[ ] keep me") }
        try ui.send("u")
        try await ui.waitUntil("the delete undone") { $0.contains("[ ] keep me") && $0.contains("Undid delete of “keep me”") }
        // The journal is in the store: after a restart, u takes back the add.
        try ui.send("q")
        let first = ui
        try await ui.waitUntil("the app quit") { _ in !first.isRunning }
        ui.kill()
        ui = try TmuxSession(command: [TodoCLI.binary, "--device", "solo"], environment: environment)
        try await ui.waitFor("[ ] keep me")
        try ui.send("u")
        try await ui.waitUntil("the add undone") { !$0.contains("[ ] keep me") && $0.contains("Undid add of “keep me”") }
        try await ui.waitFor("0 changes pending")
        try ui.send("U")
        try await ui.waitUntil("the add redone") { $0.contains("[ ] keep me") && $0.contains("Redid add") }
        try ui.send("u", "u")
        try await ui.waitFor("Nothing to undo")
    }

    @Test func altAndCtrlArrowKeysMoveAndDeleteByWordInATerminal() async throws {
        let ui = try await localUI()
        defer { ui.kill() }
        try ui.send("a")
        try ui.type("buy oat milk")
        try ui.send("M-b", "M-BSpace", "C-Right")
        try ui.type("!")
        try await ui.waitFor("New item: buy milk!")
    }

    @Test func resizeRedrawsAndTinyTerminalsGetAMessage() async throws {
        let ui = try await localUI()
        defer { ui.kill() }
        try ui.resize(width: 30, height: 8)
        try await ui.waitFor("Terminal too small")
        try ui.resize(width: 90, height: 20)
        try await ui.waitFor("local only")
    }

    @Test func quitRestoresTheTerminal() async throws {
        let ui = try await localUI()
        defer { ui.kill() }
        try ui.send("q")
        try await ui.waitUntil("exit") { _ in !ui.isRunning }
    }
}
