import Foundation
import ServerTestSupport
import Testing

/// `todo sync` merging by itself, `todo conflicts` and `todo restore`, against a real server.
@Suite struct ConflictCommandTests {
    /// Runs `todo` as one of two devices on one server.
    struct Devices {
        let home: URL
        let server: ServerProcess

        @discardableResult
        func todo(_ args: [String], device: String) async throws -> (status: Int32, out: String, err: String) {
            try await TodoCLI.run(args + ["--server", "http://127.0.0.1:\(server.port)", "--device", device], home: home)
        }
    }

    /// Devices a and b share one synced item; answers its id.
    func shared(_ text: String) async throws -> (Devices, String) {
        let home = try TempDir.make()
        let devices = Devices(home: home, server: try await ServerProcess.start(arguments: ["--database", home.appendingPathComponent("s.sqlite").path]))
        let id = try await devices.todo(["add", text], device: "a").out.trimmingCharacters(in: .whitespacesAndNewlines)
        try await devices.todo(["sync"], device: "a")
        try await devices.todo(["sync"], device: "b")
        return (devices, id)
    }

    @Test func syncMergesEditsOfDifferentFieldsAndExitsZero() async throws {
        let (devices, id) = try await shared("milk")
        try await devices.todo(["edit", id, "--text", "oat milk"], device: "a")
        try await devices.todo(["sync"], device: "a")
        try await devices.todo(["done", id], device: "b")
        let sync = try await devices.todo(["sync"], device: "b")
        #expect(sync.status == 0, "\(sync.err)")
        try await devices.todo(["sync"], device: "a")
        #expect(try await devices.todo(["list", "--all"], device: "a").out.contains("[x]\toat milk"))
        let log = try await devices.todo(["conflicts", "--json"], device: "b").out
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(log.utf8)) as? [[String: Any]])
        #expect(entries.count == 1)
        #expect(entries.first?["item"] as? String == id)
        #expect(entries.first?["resolution"] as? String == "merged")
        #expect((entries.first?["lost"] as? [String: Any])?.isEmpty == true)
        #expect(entries.first?["at"] is String && entries.first?["id"] is Double)
    }

    @Test func restoreBringsBackTheValueThatLostAndTheNextSyncSendsIt() async throws {
        let (devices, id) = try await shared("milk")
        try await devices.todo(["edit", id, "--text", "butter"], device: "a")
        try await devices.todo(["sync"], device: "a")
        try await devices.todo(["edit", id, "--text", "bread"], device: "b")
        #expect(try await devices.todo(["sync", "--on-conflict", "server"], device: "b").status == 0)
        let log = try await devices.todo(["conflicts", "--json"], device: "b").out
        let entry = try #require((try JSONSerialization.jsonObject(with: Data(log.utf8)) as? [[String: Any]])?.first)
        #expect(entry["resolution"] as? String == "server")
        #expect((entry["lost"] as? [String: Any])?["text"] as? String == "bread")
        let conflictId = try #require(entry["id"] as? Double)
        let restore = try await devices.todo(["restore", String(Int(conflictId))], device: "b")
        #expect(restore.status == 0, "\(restore.err)")
        #expect(try await devices.todo(["sync"], device: "b").status == 0)
        try await devices.todo(["sync"], device: "a")
        #expect(try await devices.todo(["list"], device: "a").out.contains("\tbread"))
        #expect(try await devices.todo(["conflicts"], device: "b").out.contains("restored"))
    }

    @Test func anEditOfAnItemDeletedElsewhereIsAlwaysAClash() async throws {
        let (devices, id) = try await shared("milk")
        try await devices.todo(["rm", id], device: "a")
        try await devices.todo(["sync"], device: "a")
        try await devices.todo(["edit", id, "--text", "still needed"], device: "b")
        let failed = try await devices.todo(["sync"], device: "b")
        #expect(failed.status != 0)
        #expect(failed.err.contains("Conflict on item \(id): it was deleted on the server and changed here"))
        #expect(try await devices.todo(["sync", "--on-conflict", "client"], device: "b").status == 0)
        try await devices.todo(["sync"], device: "a")
        #expect(try await devices.todo(["list"], device: "a").out.contains("\tstill needed"))
    }

    @Test func restoringAnUnknownConflictIsOneClearError() async throws {
        let result = try await TodoCLI.run(["restore", "999"], home: try TempDir.make())
        #expect(result.status != 0)
        #expect(result.err.contains("There is no conflict 999 in the log"))
    }
}
