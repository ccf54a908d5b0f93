import Foundation
import ServerTestSupport
import Testing

/// `make install` into a temporary prefix (the binaries this test run built), then `make uninstall`.
@Suite struct InstallTests {
    /// The package's root: the first folder above the binaries holding Package.swift.
    static var packageRoot: URL {
        var dir = ServerProcess.binary.deletingLastPathComponent()
        while dir.path != "/", !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir
    }

    /// Runs a program to its end; answers (status, stdout + stderr).
    func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> (Int32, String) {
        try await offPool {
            let log = try TempDir.make().appendingPathComponent("out")
            let child = try ChildProcess("/bin/sh", ["-c", "exec \"$0\" \"$@\" >\(log.path) 2>&1", program] + arguments, environment: environment)
            let status = child.wait()
            return (status, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
        }
    }

    @Test func installWritesProgramsManPagesAndCompletionsAndUninstallRemovesThem() async throws {
        let prefix = try TempDir.make().appendingPathComponent("usr")
        let script = Self.packageRoot.appendingPathComponent("scripts/install.sh").path
        let binaries = ServerProcess.binary.deletingLastPathComponent().path
        let (status, output) = try await run("/bin/bash", [script, prefix.path], environment: ["INSTALL_FROM": binaries, "CONFIGURATION": "debug"])
        #expect(status == 0, "\(output)")

        let home = try TempDir.make()
        let todo = prefix.appendingPathComponent("bin/todo").path
        #expect(try await run(todo, ["--help"]).1.contains("OVERVIEW: An offline-first todo list"))
        #expect(try await run(prefix.appendingPathComponent("bin/todo-server").path, ["--help"]).0 == 0)
        // Through the link, the installed binary finds its resource bundle (the sample list).
        #expect(try await run(todo, ["sample", "--device", "x"], environment: TodoCLI.environment(home: home)).0 == 0)

        let page = prefix.appendingPathComponent("share/man/man1/todo.1").path
        let (manStatus, manual) = try await run("/usr/bin/man", ["-l", page], environment: ["MANPAGER": "cat", "MANWIDTH": "80"])
        #expect(manStatus == 0)
        #expect(manual.contains("NAME") && manual.contains("todo"))
        #expect(!manual.contains("warning"))
        #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent("share/man/man1/todo.sync.1").path))
        let completions = [
            ("share/bash-completion/completions/todo", "todo"),
            ("share/zsh/site-functions/_todo", "#compdef todo"),
            ("share/fish/vendor_completions.d/todo.fish", "complete -c 'todo'"),
        ]
        for (path, marker) in completions {
            let text = try String(contentsOf: prefix.appendingPathComponent(path), encoding: .utf8)
            #expect(text.contains(marker), "\(path)")
        }

        #expect(try await run("/bin/bash", [script, "--uninstall", prefix.path]).0 == 0)
        let left = FileManager.default.enumerator(atPath: prefix.path)?.compactMap { $0 as? String }.filter { path in
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: prefix.appendingPathComponent(path).path, isDirectory: &isDirectory)
            return !isDirectory.boolValue
        } ?? []
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
