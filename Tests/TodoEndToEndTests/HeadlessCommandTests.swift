import Foundation
import ServerTestSupport
import Testing

/// `todo add|list|edit|done|rm|sync|push|pull|status` as scripts use them.
@Suite struct HeadlessCommandTests {
    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test func addPrintsTheNewIdAndListShowsIt() throws {
        let home = try TempDir.make()
        let add = try TodoCLI.run(["add", "buy", "milk"], home: home)
        #expect(add.status == 0)
        let id = add.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!id.isEmpty)
        let list = try TodoCLI.run(["list", "--json"], home: home)
        let rows = try #require(try json(list.out) as? [[String: Any]])
        #expect(rows.count == 1)
        #expect(rows[0]["id"] as? String == id)
        #expect(rows[0]["text"] as? String == "buy milk")
        #expect(rows[0]["pending"] as? Bool == true)
    }

    @Test func editDoneAndRemoveChangeTheItem() throws {
        let home = try TempDir.make()
        let id = try TodoCLI.run(["add", "draft"], home: home).out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try TodoCLI.run(["edit", String(id.prefix(8)), "--text", "final"], home: home).status == 0)
        #expect(try TodoCLI.run(["list"], home: home).out.contains("final"))
        #expect(try TodoCLI.run(["done", id], home: home).status == 0)
        #expect(!(try TodoCLI.run(["list"], home: home).out.contains("final")))
        #expect(try TodoCLI.run(["list", "--all"], home: home).out.contains("[x]\tfinal"))
        #expect(try TodoCLI.run(["rm", id], home: home).status == 0)
        #expect(try TodoCLI.run(["list", "--all"], home: home).out.isEmpty)
    }

    @Test func unknownIdIsAClearError() throws {
        let home = try TempDir.make()
        let result = try TodoCLI.run(["done", "nope"], home: home)
        #expect(result.status != 0)
        #expect(result.err.contains("No item has the id 'nope'"))
    }

    @Test func statusReportsServerPendingAndLastSync() throws {
        let home = try TempDir.make()
        let server = try ServerProcess(arguments: ["--database", home.appendingPathComponent("s.sqlite").path])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        try TodoCLI.run(["add", "one", "--server", url], home: home)
        var status = try #require(try json(try TodoCLI.run(["status", "--json", "--server", url], home: home).out) as? [String: Any])
        #expect(status["server"] as? String == url)
        #expect(status["pending"] as? Int == 1)
        #expect(status["lastSync"] is NSNull)
        #expect(try TodoCLI.run(["sync", "--server", url], home: home).status == 0)
        status = try #require(try json(try TodoCLI.run(["status", "--json", "--server", url], home: home).out) as? [String: Any])
        #expect(status["pending"] as? Int == 0)
        #expect(status["lastSync"] is String)
    }

    @Test func pushThenPullMoveItemsBetweenDevices() throws {
        let home = try TempDir.make()
        let server = try ServerProcess(arguments: ["--database", home.appendingPathComponent("s.sqlite").path])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        try TodoCLI.run(["add", "from phone", "--server", url, "--device", "phone"], home: home)
        #expect(try TodoCLI.run(["push", "--server", url, "--device", "phone"], home: home).status == 0)
        #expect(try TodoCLI.run(["pull", "--server", url, "--device", "laptop"], home: home).status == 0)
        #expect(try TodoCLI.run(["list", "--server", url, "--device", "laptop"], home: home).out.contains("from phone"))
    }

    @Test func syncWithAConflictFailsWithoutAChoiceAndObeysOnConflict() throws {
        let home = try TempDir.make()
        let server = try ServerProcess(arguments: ["--database", home.appendingPathComponent("s.sqlite").path])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        func todo(_ args: String..., device: String) throws -> (status: Int32, out: String, err: String) {
            try TodoCLI.run(args + ["--server", url, "--device", device], home: home)
        }
        let id = try todo("add", "shared", device: "a").out.trimmingCharacters(in: .whitespacesAndNewlines)
        try todo("sync", device: "a")
        try todo("sync", device: "b")
        try todo("edit", id, "--text", "A", device: "a")
        try todo("sync", device: "a")
        try todo("edit", id, "--text", "B", device: "b")
        let failed = try todo("sync", device: "b")
        #expect(failed.status != 0)
        #expect(failed.err.contains("--on-conflict"))
        let kept = try todo("sync", "--on-conflict", "cancel", device: "b")
        #expect(kept.status != 0)
        #expect(try todo("status", "--json", device: "b").out.contains("\"pending\":1"))
        #expect(try todo("sync", "--on-conflict", "client", device: "b").status == 0)
        try todo("sync", device: "a")
        #expect(try todo("list", device: "a").out.contains("\tB"))
    }

    @Test func sampleAddsTheBundledListAndHelpShowsTheBundledText() throws {
        let home = try TempDir.make()
        let sample = try TodoCLI.run(["sample"], home: home)
        #expect(sample.status == 0)
        #expect(sample.out.contains("Added 8 sample items."))
        let all = try TodoCLI.run(["list", "--all"], home: home).out
        #expect(all.contains("Buy milk"))
        #expect(all.contains("[x]\tRead chapter 3"))
        #expect(try TodoCLI.run(["--help"], home: home).out.contains("Use Client keeps yours"))
    }

    @Test func badServerURLIsAClearError() throws {
        let result = try TodoCLI.run(["list", "--server", "ftp://nowhere"], home: try TempDir.make())
        #expect(result.status != 0)
        #expect(result.err.contains("not an http:// or https:// URL"))
    }
}
