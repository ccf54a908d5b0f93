import Foundation
import ServerTestSupport
import Testing

/// `todo sign-in` / `sign-out` (and their first names, `login` / `logout`) against a server that requires accounts, and a 401 that keeps every change.
@Suite struct AccountCommandTests {
    /// A server requiring tokens, with the account ann / "pw one two".
    func accountServer(_ home: URL) async throws -> (ServerProcess, String) {
        let database = home.appendingPathComponent("s.sqlite").path
        let server = try await ServerProcess.start(arguments: ["--database", database, "--auth", "required"])
        let (status, errors) = try await ServerProcess.runToExit(arguments: ["users", "add", "ann", "--password-stdin", "--database", database], input: "pw one two\n")
        guard status == 0 else { throw ServerStartError(description: errors) }
        return (server, "http://127.0.0.1:\(server.port)")
    }

    @Test func aRefusedSyncKeepsTheQueueAndSaysToSignInThenLoginLetsItThrough() async throws {
        let home = try TempDir.make()
        let (server, url) = try await accountServer(home)
        defer { server.stop() }
        try await TodoCLI.run(["add", "kept through a 401", "--server", url], home: home)
        let refused = try await TodoCLI.run(["sync", "--server", url], home: home)
        #expect(refused.status != 0)
        #expect(refused.err.contains("todo sign-in"))
        #expect(refused.err.split(separator: "\n").count == 1)
        #expect(try await TodoCLI.run(["status", "--json", "--server", url], home: home).out.contains(#""pending":1"#))
        let login = try await TodoCLI.run(["sign-in", "--server", url, "--user", "ann", "--password-stdin"], home: home, input: "pw one two\n")
        #expect(login.status == 0)
        #expect(try await TodoCLI.run(["sync", "--server", url], home: home).status == 0)
        #expect(try await TodoCLI.run(["status", "--json", "--server", url], home: home).out.contains(#""pending":0"#))
        // Another device of ann's sees it.
        let laptop = try TempDir.make()
        try await TodoCLI.run(["login", "--server", url, "--user", "ann", "--password-stdin"], home: laptop, input: "pw one two\n")
        try await TodoCLI.run(["sync", "--server", url], home: laptop)
        #expect(try await TodoCLI.run(["list", "--server", url], home: laptop).out.contains("kept through a 401"))
    }

    @Test func theTokenFileIsPrivateAndHoldsNoPassword() async throws {
        let home = try TempDir.make()
        let (server, url) = try await accountServer(home)
        defer { server.stop() }
        #expect(try await TodoCLI.run(["login", "--server", url, "--user", "ann", "--password-stdin"], home: home, input: "pw one two\n").status == 0)
        let file = home.appendingPathComponent("config/offline-todo/tokens.json").path
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("ann"))
        #expect(!text.contains("pw one two"))
        #expect(try await TodoCLI.run(["logout", "--server", url], home: home).status == 0)
        #expect(!(try String(contentsOfFile: file, encoding: .utf8)).contains("ann"))
    }

    @Test func aWrongPasswordIsOneClearLine() async throws {
        let home = try TempDir.make()
        let (server, url) = try await accountServer(home)
        defer { server.stop() }
        let result = try await TodoCLI.run(["login", "--server", url, "--user", "ann", "--password-stdin"], home: home, input: "nope\n")
        #expect(result.status != 0)
        #expect(result.err.contains("The user name or password is wrong"))
    }
}
