import Foundation
import ServerTestSupport
import Testing

/// `todo app-passwords` and `todo-server users app-passwords`: made, shown once on the last
/// line, listed, revoked.
@Suite struct AppPasswordCommandTests {
    /// The status of a CalDAV request signed in with `password` (curl: a real client).
    func davStatus(_ url: String, _ user: String, _ password: String) async throws -> String {
        try await offPool {
            let child = try ChildProcess("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PROPFIND", "-H", "Depth: 0",
                                                           "-u", "\(user):\(password)", "\(url)/dav/calendars/\(user)/"], captureOutput: true)
            let out = child.standardOutput!.readDataToEndOfFile()
            _ = child.wait()
            return String(decoding: out, as: UTF8.self)
        }
    }

    @Test func todoMakesListsAndRevokesAppPasswords() async throws {
        let h = try await SharingCommandTests.Household.make()
        defer { _ = h.server.stop() }
        let added = try await h.todo(["app-passwords", "add", "Phone"], h.ann)
        #expect(added.status == 0, "\(added.err)")
        let password = try #require(added.out.split(separator: "\n").last.map(String.init))
        #expect(try await davStatus(h.url, "ann", password) == "207")
        let listed = try await h.todo(["app-passwords", "--json"], h.ann)
        let entries = try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]]
        #expect(entries?.map { $0["label"] as? String } == ["Phone"])
        #expect(try await h.todo(["app-passwords", "rm", "Phone"], h.ann).status == 0)
        #expect(try await davStatus(h.url, "ann", password) == "401")
    }

    @Test func connectionOptionsBeforeTheCommandReachItsSubcommand() async throws {
        let h = try await SharingCommandTests.Household.make()
        defer { _ = h.server.stop() }
        let added = try await TodoCLI.run(["--server", h.url, "app-passwords", "add", "Phone"], home: h.ann)
        #expect(added.status == 0, "\(added.err)")
        let listed = try await TodoCLI.run(["--server", h.url, "app-passwords", "--json"], home: h.ann)
        #expect((try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]])?.map { $0["label"] as? String } == ["Phone"])
    }

    @Test func theHelpOfAppPasswordsNamesAddAndRm() async throws {
        let help = try await TodoCLI.run(["app-passwords", "--help"], home: try TempDir.make())
        #expect(help.status == 0)
        #expect(help.out.contains("add") && help.out.contains("rm") && help.out.contains("SUBCOMMANDS"), "\(help.out)")
    }

    @Test func operatorsManageAnAccountsAppPasswords() async throws {
        let h = try await SharingCommandTests.Household.make()
        defer { _ = h.server.stop() }
        let database = try #require(h.server.databaseArgument)
        let (status, _) = try await ServerProcess.runToExit(arguments: ["users", "app-passwords", "add", "bob", "Tablet", "--database", database])
        #expect(status == 0)
        let listed = try await h.todo(["app-passwords", "--json"], h.bob)
        #expect(listed.out.contains("\"Tablet\""))
        let (removed, _) = try await ServerProcess.runToExit(arguments: ["users", "app-passwords", "rm", "bob", "Tablet", "--database", database])
        #expect(removed == 0)
        #expect(try await h.todo(["app-passwords", "--json"], h.bob).out.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
    }

    @Test func withoutASignInItSaysWhatIsNeeded() async throws {
        let home = try TempDir.make()
        let result = try await TodoCLI.run(["app-passwords"], home: home)
        #expect(result.status != 0)
        #expect(result.err.contains("needs a server"))
    }
}
