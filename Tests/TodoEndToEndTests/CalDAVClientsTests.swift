import Foundation
import ServerTestSupport
import Testing

/// `todo` and the terminal's CalDAV pair, vdirsyncer and todoman (from the project's `.venv`,
/// which `make test` makes), through one real todo-server: what either side does reaches the other.
@Suite(.serialized) struct CalDAVClientsTests {
    /// A server with ann signed in on `todo`, and vdirsyncer and todoman configured for her.
    struct Desk {
        let server: ServerProcess
        let url: String
        let home: URL
        let dav: URL

        static let venv = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".venv/bin")

        static func make() async throws -> Desk {
            guard FileManager.default.isExecutableFile(atPath: venv.appendingPathComponent("vdirsyncer").path) else {
                throw ServerStartError(description: "vdirsyncer is not in .venv: run the tests with `make test` (scripts/ensure-venv.sh makes it)")
            }
            let home = try TempDir.make(), dav = home.appendingPathComponent("dav")
            let accounts = try await AccountServer.start()
            try await accounts.signIn("ann", home: home)
            let (server, url) = (accounts.server, accounts.url)
            try FileManager.default.createDirectory(at: dav, withIntermediateDirectories: true)
            try """
            [general]
            status_path = "\(dav.path)/status/"

            [pair tasks]
            a = "local"
            b = "server"
            collections = ["from a", "from b"]
            metadata = ["displayname"]
            conflict_resolution = "b wins"

            [storage local]
            type = "filesystem"
            path = "\(dav.path)/calendars/"
            fileext = ".ics"

            [storage server]
            type = "caldav"
            url = "\(url)/"
            username = "ann"
            password = "password ann"
            item_types = ["VTODO"]
            """.write(to: dav.appendingPathComponent("vdirsyncer.conf"), atomically: true, encoding: .utf8)
            try """
            path = "\(dav.path)/calendars/*"
            date_format = "%Y-%m-%d"
            time_format = "%H:%M"
            default_due = 0
            """.write(to: dav.appendingPathComponent("todoman.py"), atomically: true, encoding: .utf8)
            return Desk(server: server, url: url, home: home, dav: dav)
        }

        @discardableResult
        func todo(_ args: String...) async throws -> (status: Int32, out: String, err: String) {
            let result = try await TodoCLI.run(args + ["--server", url], home: home)
            #expect(result.status == 0, "todo \(args): \(result.err)")
            return result
        }

        /// `todo list --all --json`, by text.
        func items() async throws -> [String: [String: Any]] {
            let out = try await todo("list", "--all", "--json").out
            let items = (try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]]) ?? []
            return Dictionary(items.map { ($0["text"] as? String ?? "", $0) }) { a, _ in a }
        }

        /// vdirsyncer with this desk's configuration; `yes` answers its questions.
        @discardableResult
        func vdirsyncer(_ args: String...) async throws -> String {
            try await run("vdirsyncer", args, environment: ["VDIRSYNCER_CONFIG": dav.appendingPathComponent("vdirsyncer.conf").path],
                          input: String(repeating: "y\n", count: 20))
        }

        /// todoman (its command is also called `todo`) with this desk's configuration.
        @discardableResult
        func todoman(_ args: String...) async throws -> String {
            try await run("todo", ["--config", dav.appendingPathComponent("todoman.py").path] + args, environment: [:], input: nil)
        }

        /// todoman's tasks, by summary.
        func todomanTasks() async throws -> [String: [String: Any]] {
            let out = try await todoman("--porcelain", "list", "--status", "ANY")
            let tasks = (try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]]) ?? []
            return Dictionary(tasks.map { ($0["summary"] as? String ?? "", $0) }) { a, _ in a }
        }

        private func run(_ program: String, _ args: [String], environment: [String: String], input: String?) async throws -> String {
            let path = Desk.venv.appendingPathComponent(program).path
            let inputFile = try input.map { text -> String in
                let file = home.appendingPathComponent("stdin-\(UUID().uuidString)")
                try Data(text.utf8).write(to: file)
                return file.path
            }
            let (status, out, err): (Int32, String, String) = try await offPool {
                let child = try ChildProcess(path, args, environment: environment.merging(["LANG": "C.UTF-8", "HOME": home.path]) { $1 },
                                             captureOutput: true, captureError: true, inputFile: inputFile)
                let out = child.standardOutput!.readDataToEndOfFile(), err = child.standardError!.readDataToEndOfFile()
                return (child.wait(), String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
            }
            #expect(status == 0, "\(program) \(args): \(err)")
            return out
        }
    }

    @Test func aTaskAddedInTodoReachesTodomanWithItsFields() async throws {
        let desk = try await Desk.make()
        defer { _ = desk.server.stop() }
        try await desk.todo("add", "Buy milk", "--list", "Groceries", "--due", "2026-12-01", "--priority", "high", "--tag", "dairy")
        try await desk.todo("sync")
        try await desk.vdirsyncer("discover")
        try await desk.vdirsyncer("metasync")  // the lists' names, which todoman shows
        try await desk.vdirsyncer("sync")
        let milk = try #require(try await desk.todomanTasks()["Buy milk"])
        #expect(milk["list"] as? String == "Groceries")
        #expect(milk["priority"] as? Int == 1)
        #expect(milk["categories"] as? [String] == ["dairy"])
        #expect(milk["completed"] as? Bool == false)
    }

    @Test func aStartDateTravelsBothWaysBetweenTodoAndTodoman() async throws {
        let desk = try await Desk.make()
        defer { _ = desk.server.stop() }
        try await desk.todo("add", "Renew passport", "--start", "2027-03-01", "--due", "2027-03-31")
        try await desk.todo("sync")
        try await desk.vdirsyncer("discover")
        try await desk.vdirsyncer("sync")
        #expect(try await desk.todomanTasks()["Renew passport"]?["start"] as? Int != nil)
        try await desk.todoman("new", "-l", "Inbox", "--start", "2027-04-01", "File taxes")
        try await desk.vdirsyncer("sync")
        try await desk.todo("sync")
        let taxes = try #require(try await desk.items()["File taxes"])
        #expect((taxes["start"] as? String)?.hasPrefix("2027-04-01") == true, "\(taxes)")
        #expect(try await desk.items()["Renew passport"]?["start"] as? String == "2027-03-01")
    }

    @Test func todomansNewAndDoneTasksReachTodoAndTodosCompletionComesBack() async throws {
        let desk = try await Desk.make()
        defer { _ = desk.server.stop() }
        try await desk.todo("add", "Buy milk", "--list", "Groceries")
        try await desk.todo("sync")
        try await desk.vdirsyncer("discover")
        try await desk.vdirsyncer("metasync")  // the lists' names, which todoman shows
        try await desk.vdirsyncer("sync")
        let milkNumber = try #require(try await desk.todomanTasks()["Buy milk"]?["id"] as? Int)
        try await desk.todoman("new", "-l", "Groceries", "-c", "baking", "--priority", "low", "Bake bread")
        try await desk.todoman("done", String(milkNumber))
        try await desk.vdirsyncer("sync")
        try await desk.todo("sync")
        let items = try await desk.items()
        #expect(items["Buy milk"]?["complete"] as? Bool == true)
        let bread = try #require(items["Bake bread"])
        #expect(bread["list"] as? String == "Groceries")
        #expect(bread["priority"] as? String == "low")
        #expect(bread["tags"] as? [String] == ["baking"])
        // Completed in todo, it shows completed in todoman after the next syncs.
        try await desk.todo("done", try #require(bread["id"] as? String))
        try await desk.todo("sync")
        try await desk.vdirsyncer("sync")
        #expect(try await desk.todomanTasks()["Bake bread"]?["completed"] as? Bool == true)
    }
}
