import Foundation
import ServerTestSupport
import Testing

/// `todo` against a server of the seed's own family: a fake of the Azure Mobile Apps Node.js
/// server on SQLite with a dynamic schema (`Tests/Fakes/dynamic_schema_server.py`), which adds a
/// column only from the first non-null value it sees and has no extension of ours (no
/// capabilities, no batch, no accounts, no feed).
@Suite struct BaseProtocolServerTests {
    /// The fake, on a port of its own, with its request log in `home`.
    final class DynamicSchemaServer: Sendable {
        let process: ChildProcess
        let url: String
        let log: URL

        init(home: URL) throws {
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fakes/dynamic_schema_server.py").path
            log = home.appendingPathComponent("server.log")
            let database = home.appendingPathComponent("azure.sqlite").path
            process = try ChildProcess("/bin/sh", ["-c", #"exec python3 "$0" --port 0 --database "$1" 2>"$2""#, script, database, log.path],
                                       captureOutput: true)
            // Its first line, once it accepts connections: "listening on PORT".
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = process.standardOutput!.availableData
                guard !chunk.isEmpty else { break }
                line.append(chunk)
            }
            guard let port = String(decoding: line, as: UTF8.self).split(separator: " ").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }) else {
                throw ServerStartError(description: "the fake server did not start: \(String(decoding: line, as: UTF8.self))")
            }
            url = "http://127.0.0.1:\(port)"
        }

        /// What it was sent, for a failure's message.
        var requests: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        func stop() {
            process.signal(SIGTERM)
            _ = process.wait()
        }
    }

    /// Two devices of one person on the fake.
    struct Devices {
        let home: URL
        let server: DynamicSchemaServer

        static func make() async throws -> Devices {
            let home = try TempDir.make()
            return Devices(home: home, server: try DynamicSchemaServer(home: home))
        }

        @discardableResult
        func todo(_ args: String..., device: String) async throws -> (status: Int32, out: String, err: String) {
            try await TodoCLI.run(args + ["--server", server.url, "--device", device], home: home)
        }

        /// Syncs and expects success, naming what the server was sent when it fails.
        func sync(_ device: String, _ extra: String...) async throws {
            let sync = try await TodoCLI.run(["sync"] + extra + ["--server", server.url, "--device", device], home: home)
            #expect(sync.status == 0, "\(sync.err)\n\(server.requests)")
        }

        /// `todo list --all --json` of a device.
        func items(_ device: String) async throws -> [[String: Any]] {
            let out = try await todo("list", "--all", "--json", device: device).out
            return try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]] ?? []
        }

        /// The texts of a device's items.
        func texts(_ device: String) async throws -> [String] { try await items(device).compactMap { $0["text"] as? String }.sorted() }
    }

    @Test func everyTaskFieldReachesASecondDeviceAndEditsOfThemSync() async throws {
        let d = try await Devices.make()
        defer { d.server.stop() }
        let id = try await d.todo("add", "water plants", "--list", "Home", "--tag", "green", "--tag", "weekly", "--priority", "high",
                                  "--due", "2026-12-01", "--repeat", "weekly", "--notes", "the ferns", device: "a").out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try await d.sync("a")
        try await d.sync("b")
        let pulled = try #require(try await d.items("b").first)
        #expect(pulled["list"] as? String == "Home")
        #expect(pulled["tags"] as? [String] == ["green", "weekly"])
        #expect(pulled["priority"] as? String == "high")
        #expect(pulled["due"] as? String == "2026-12-01")
        #expect(pulled["repeat"] as? String == "weekly")
        #expect(pulled["notes"] as? String == "the ferns")
        // Edits that set fields the server has never seen a value of (completedAt) and clear others.
        #expect(try await d.todo("done", id, device: "a").status == 0)
        #expect(try await d.todo("edit", id, "--notes", "", "--priority", "none", device: "a").status == 0)
        try await d.sync("a")
        try await d.sync("b")
        let items = try await d.items("b")
        let done = try #require(items.first { $0["id"] as? String == id })
        #expect(done["complete"] as? Bool == true)
        #expect(done["completedAt"] is String)
        #expect(done["notes"] as? String ?? "" == "")
        #expect(done["priority"] is NSNull)
        let next = try #require(items.first { $0["id"] as? String != id })
        #expect(next["due"] as? String == "2026-12-08")
        #expect(next["complete"] as? Bool == false)
    }

    @Test func offlineAddsPullsAndDeletesReachTheOtherDevice() async throws {
        let d = try await Devices.make()
        defer { d.server.stop() }
        let milk = try await d.todo("add", "milk", device: "a").out.trimmingCharacters(in: .whitespacesAndNewlines)
        try await d.todo("add", "bread", device: "a")
        try await d.sync("a")
        try await d.sync("b")
        #expect(try await d.texts("b") == ["bread", "milk"])
        #expect(try await d.todo("rm", milk, device: "b").status == 0)
        try await d.sync("b")
        try await d.sync("a")
        #expect(try await d.texts("a") == ["bread"])
    }

    @Test(arguments: ["server", "client"])
    func aConflictIsSettledAsChosen(_ choice: String) async throws {
        let d = try await Devices.make()
        defer { d.server.stop() }
        let id = try await d.todo("add", "milk", device: "a").out.trimmingCharacters(in: .whitespacesAndNewlines)
        try await d.sync("a")
        try await d.sync("b")
        try await d.todo("edit", id, "--text", "oat milk", device: "a")
        try await d.sync("a")
        try await d.todo("edit", id, "--text", "soy milk", device: "b")
        let failed = try await d.todo("sync", device: "b")
        #expect(failed.status != 0)
        #expect(failed.err.contains("Conflict on item \(id): text changed here and on the server"), "\(failed.err)")
        try await d.sync("b", "--on-conflict", choice)
        try await d.sync("a")
        let winner = choice == "server" ? "oat milk" : "soy milk"
        #expect(try await d.texts("a") == [winner])
        #expect(try await d.texts("b") == [winner])
    }
}
