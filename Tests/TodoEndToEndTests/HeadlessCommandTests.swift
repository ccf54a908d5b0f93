import Foundation
import ServerTestSupport
import Testing

/// `todo add|list|edit|done|rm|sync|push|pull|status` as scripts use them.
@Suite struct HeadlessCommandTests {
    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test func addPrintsTheNewIdAndListShowsIt() async throws {
        let home = try TempDir.make()
        let add = try await TodoCLI.run(["add", "buy", "milk"], home: home)
        #expect(add.status == 0)
        let id = add.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!id.isEmpty)
        let list = try await TodoCLI.run(["list", "--json"], home: home)
        let rows = try #require(try json(list.out) as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows[0]["id"] as? String == id)
        #expect(rows[0]["text"] as? String == "buy milk")
        #expect(rows[0]["pending"] as? Bool == true)
    }

    @Test func editDoneAndRemoveChangeTheItem() async throws {
        let home = try TempDir.make()
        let id = try await TodoCLI.run(["add", "draft"], home: home).out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await TodoCLI.run(["edit", String(id.prefix(8)), "--text", "final"], home: home).status == 0)
        #expect(try await TodoCLI.run(["list"], home: home).out.contains("final"))
        #expect(try await TodoCLI.run(["done", id], home: home).status == 0)
        #expect(!(try await TodoCLI.run(["list"], home: home).out.contains("final")))
        #expect(try await TodoCLI.run(["list", "--all"], home: home).out.contains("[x]\tfinal"))
        #expect(try await TodoCLI.run(["rm", id], home: home).status == 0)
        #expect(try await TodoCLI.run(["list", "--all"], home: home).out.isEmpty)
    }

    @Test func connectionOptionsWorkBeforeTheCommandAsWellAsAfterIt() async throws {
        let home = try TempDir.make()
        #expect(try await TodoCLI.run(["--device", "phone", "add", "before"], home: home).status == 0)
        #expect(try await TodoCLI.run(["--device=phone", "add", "before, with ="], home: home).status == 0)
        #expect(try await TodoCLI.run(["add", "after", "--device", "phone"], home: home).status == 0)
        let phone = try await TodoCLI.run(["list", "--device", "phone"], home: home)
        #expect(phone.out.contains("before") && phone.out.contains("before, with =") && phone.out.contains("after"))
        let before = try await TodoCLI.run(["--device", "phone", "list"], home: home)
        #expect(before.status == 0)
        #expect(before.out == phone.out)
        #expect(try await TodoCLI.run(["list"], home: home).out.isEmpty)  // the default device has none
    }

    @Test func theRootHelpNamesTheConnectionOptions() async throws {
        let help = try await TodoCLI.run(["--help"], home: try TempDir.make(), environment: ["COLUMNS": "60"])
        let flat = help.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("--server, --device, --store and --ca-file work before or after a command"))
        // The overview is wrapped at the width by argument-parser, never mid-sentence by hand.
        let overview = help.out.components(separatedBy: "USAGE:")[0].split(separator: "\n")
        #expect(overview.count > 5)
        #expect(!overview.contains { $0.count > 60 })
    }

    @Test func unknownIdIsAClearErrorWithoutTheUsage() async throws {
        let home = try TempDir.make()
        let result = try await TodoCLI.run(["done", "nope"], home: home)
        #expect(result.status == 1)
        #expect(result.err.contains("No item has the id 'nope'"))
        #expect(!result.err.contains("Usage:"))
    }

    @Test func anEmptyIdIsRefusedAndTouchesNothing() async throws {
        let home = try TempDir.make()
        try await TodoCLI.run(["add", "the only item"], home: home)
        for command in [["rm", ""], ["done", " "], ["edit", "", "--text", "changed"]] {
            let result = try await TodoCLI.run(command, home: home)
            #expect(result.status != 0, "\(command)")
            #expect(result.err.contains("An item id cannot be empty."), "\(command)")
        }
        let items = try #require(try json(try await TodoCLI.run(["list", "--json"], home: home).out) as? [[String: Any]])
        #expect(items.map { $0["text"] as? String } == ["the only item"])
    }

    @Test func anIdPrefixFindsItsItemAndAnAmbiguousOneIsRefused() async throws {
        let home = try TempDir.make()
        try await TodoCLI.run(["import", try itemsFile(home, [("abc-1", "first"), ("abd-2", "second")])], home: home)
        #expect(try await TodoCLI.run(["done", "ABC"], home: home).status == 0)
        let ambiguous = try await TodoCLI.run(["done", "ab"], home: home)
        #expect(ambiguous.status == 1 && ambiguous.err.contains("The id 'ab' matches more than one item"))
        let items = try #require(try json(try await TodoCLI.run(["list", "--json", "--all"], home: home).out) as? [[String: Any]])
        #expect(Set(items.filter { $0["complete"] as? Bool == true }.compactMap { $0["id"] as? String }) == ["abc-1"])
    }

    /// Text another device wrote could hold an escape sequence the terminal would obey, or a tab
    /// or line break that splits the line's fields.
    @Test func lineOutputShowsControlCharactersAsReplacementCharacters() async throws {
        let home = try TempDir.make()
        try await TodoCLI.run(["import", try itemsFile(home, [("x1", "red \u{1B}[31malert\tnext\u{2028}line")])], home: home)
        let line = try await TodoCLI.run(["list"], home: home).out.split(separator: "\n").first.map(String.init) ?? ""
        #expect(line == "x1\t[ ]\tred \u{FFFD}[31malert\u{FFFD}next\u{FFFD}line\t(pending)")
        let items = try #require(try json(try await TodoCLI.run(["list", "--json"], home: home).out) as? [[String: Any]])
        #expect(items.first?["text"] as? String == "red \u{1B}[31malert\tnext\u{2028}line", "JSON keeps the text as it is")
    }

    /// A JSON import file of items with these ids and texts.
    func itemsFile(_ home: URL, _ items: [(id: String, text: String)]) throws -> String {
        let file = home.appendingPathComponent("items-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: items.map { ["id": $0.id, "text": $0.text] }).write(to: file)
        return file.path
    }

    @Test func statusReportsServerPendingAndLastSync() async throws {
        let home = try TempDir.make()
        let server = try await ServerProcess.start(arguments: ["--database", home.appendingPathComponent("s.sqlite").path])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        try await TodoCLI.run(["add", "one", "--server", url], home: home)
        var status = try #require(try json(try await TodoCLI.run(["status", "--json", "--server", url], home: home).out) as? [String: Any])
        #expect(status["server"] as? String == url)
        #expect(status["pending"] as? Int == 1)
        #expect(status["lastSync"] is NSNull)
        #expect(try await TodoCLI.run(["sync", "--server", url], home: home).status == 0)
        status = try #require(try json(try await TodoCLI.run(["status", "--json", "--server", url], home: home).out) as? [String: Any])
        #expect(status["pending"] as? Int == 0)
        #expect(status["lastSync"] is String)
    }

    @Test func undoTakesBackAnUnsentAddSoNothingIsSent() async throws {
        let home = try TempDir.make()
        let server = try await ServerProcess.start(arguments: ["--database", home.appendingPathComponent("s.sqlite").path])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        try await TodoCLI.run(["add", "typo", "--server", url], home: home)
        let undo = try await TodoCLI.run(["undo", "--server", url], home: home)
        #expect(undo.status == 0)
        #expect(undo.out.contains("Undid add of “typo”"))
        #expect(try await TodoCLI.run(["sync", "--server", url], home: home).status == 0)
        #expect(try await server.items(table: "TodoItem").isEmpty)
    }

    @Test func undoOfASyncedDeleteBringsTheItemBackOnTheServer() async throws {
        let home = try TempDir.make()
        let server = try await ServerProcess.start(arguments: ["--database", home.appendingPathComponent("s.sqlite").path])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        let id = try await TodoCLI.run(["add", "keep me", "--server", url], home: home).out.trimmingCharacters(in: .whitespacesAndNewlines)
        try await TodoCLI.run(["sync", "--server", url], home: home)
        try await TodoCLI.run(["rm", id, "--server", url], home: home)
        try await TodoCLI.run(["sync", "--server", url], home: home)
        #expect(try await server.items(table: "TodoItem").first?["deleted"] as? Bool == true)
        let undo = try await TodoCLI.run(["undo", "--server", url], home: home)
        #expect(undo.out.contains("Undid delete of “keep me” — it was synced already"))
        #expect(try await TodoCLI.run(["sync", "--server", url], home: home).status == 0)
        let item = try #require(try await server.items(table: "TodoItem").first)
        #expect(item["deleted"] as? Bool == false)
        #expect(item["text"] as? String == "keep me")
        #expect(try await TodoCLI.run(["list", "--server", url], home: home).out.contains("keep me"))
    }

    @Test func undoWithNothingToUndoExitsNonZero() async throws {
        let home = try TempDir.make()
        let undo = try await TodoCLI.run(["undo"], home: home)
        #expect(undo.status != 0)
        #expect(undo.err.contains("Nothing to undo"))
        let redo = try await TodoCLI.run(["redo"], home: home)
        #expect(redo.status != 0)
        #expect(redo.err.contains("Nothing to redo"))
    }

    @Test func redoMakesTheUndoneEditAgain() async throws {
        let home = try TempDir.make()
        let id = try await TodoCLI.run(["add", "draft"], home: home).out.trimmingCharacters(in: .whitespacesAndNewlines)
        try await TodoCLI.run(["edit", id, "--text", "final"], home: home)
        #expect(try await TodoCLI.run(["undo"], home: home).out.contains("Undid edit of “draft”"))
        #expect(try await TodoCLI.run(["list"], home: home).out.contains("draft"))
        #expect(try await TodoCLI.run(["redo"], home: home).out.contains("Redid edit of “final”"))
        #expect(try await TodoCLI.run(["list"], home: home).out.contains("final"))
    }

    @Test func pushThenPullMoveItemsBetweenDevices() async throws {
        let home = try TempDir.make()
        let server = try await ServerProcess.start(arguments: ["--database", home.appendingPathComponent("s.sqlite").path])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        try await TodoCLI.run(["add", "from phone", "--server", url, "--device", "phone"], home: home)
        #expect(try await TodoCLI.run(["push", "--server", url, "--device", "phone"], home: home).status == 0)
        #expect(try await TodoCLI.run(["pull", "--server", url, "--device", "laptop"], home: home).status == 0)
        #expect(try await TodoCLI.run(["list", "--server", url, "--device", "laptop"], home: home).out.contains("from phone"))
    }

    @Test func syncWithAConflictFailsWithoutAChoiceAndObeysOnConflict() async throws {
        let home = try TempDir.make()
        let server = try await ServerProcess.start(arguments: ["--database", home.appendingPathComponent("s.sqlite").path])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        func todo(_ args: String..., device: String) async throws -> (status: Int32, out: String, err: String) {
            try await TodoCLI.run(args + ["--server", url, "--device", device], home: home)
        }
        let id = try await todo("add", "shared", device: "a").out.trimmingCharacters(in: .whitespacesAndNewlines)
        try await todo("sync", device: "a")
        try await todo("sync", device: "b")
        try await todo("edit", id, "--text", "A", device: "a")
        try await todo("sync", device: "a")
        try await todo("edit", id, "--text", "B", device: "b")
        let failed = try await todo("sync", device: "b")
        #expect(failed.status != 0)
        #expect(failed.err.contains("Conflict on item \(id): text changed here and on the server"))
        #expect(failed.err.contains("--on-conflict"))
        let kept = try await todo("sync", "--on-conflict", "cancel", device: "b")
        #expect(kept.status != 0)
        #expect(try await todo("status", "--json", device: "b").out.contains("\"pending\":1"))
        #expect(try await todo("sync", "--on-conflict", "client", device: "b").status == 0)
        try await todo("sync", device: "a")
        #expect(try await todo("list", device: "a").out.contains("\tB"))
    }

    @Test func sampleAddsTheBundledListAndHelpShowsTheBundledText() async throws {
        let home = try TempDir.make()
        let sample = try await TodoCLI.run(["sample"], home: home)
        #expect(sample.status == 0)
        #expect(sample.out.contains("Added 8 sample items."))
        let all = try await TodoCLI.run(["list", "--all"], home: home).out
        #expect(all.contains("Buy milk"))
        #expect(all.contains("[x]\tRead chapter 3"))
        #expect(try await TodoCLI.run(["--help"], home: home).out.contains("Use Client keeps yours"))
    }

    @Test func badServerURLIsAClearError() async throws {
        let result = try await TodoCLI.run(["list", "--server", "ftp://nowhere"], home: try TempDir.make())
        #expect(result.status != 0)
        #expect(result.err.contains("not an http:// or https:// URL"))
    }

    @Test func aServerURLsSchemeIgnoresLetterCase() async throws {
        let status = try await TodoCLI.run(["status", "--json", "--server", "HTTP://127.0.0.1:9"], home: try TempDir.make())
        #expect(status.status == 0)
        #expect((try json(status.out) as? [String: Any])?["server"] as? String == "http://127.0.0.1:9")
    }

    @Test func anImportWhoseListNameIsRefusedSaysSoWithoutACode() async throws {
        let home = try TempDir.make()
        let file = home.appendingPathComponent("items.json")
        try Data(#"[{"text":"a","list":"Alpha"},{"text":"b","list":"Inbox"}]"#.utf8).write(to: file)
        let result = try await TodoCLI.run(["import", file.path], home: home)
        #expect(result.status == 1)
        #expect(result.err.contains("items.json: “Inbox” is where items without a list are; choose another name — no item was imported."))
        #expect(try await TodoCLI.run(["lists"], home: home).out.contains("Alpha") == false)
    }
}
