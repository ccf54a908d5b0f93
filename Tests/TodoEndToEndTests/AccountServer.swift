import Foundation
import ServerTestSupport

/// A todo-server that requires accounts, on a database of its own, and people signed in on `todo`
/// (each on a device of their own), with the password "password NAME".
struct AccountServer {
    let server: ServerProcess
    let database: String

    var url: String { "http://127.0.0.1:\(server.port)" }

    static func start(arguments: [String] = []) async throws -> AccountServer {
        let database = try TempDir.make().appendingPathComponent("server.sqlite").path
        return AccountServer(server: try await ServerProcess.start(arguments: ["--database", database, "--auth", "required"] + arguments), database: database)
    }

    /// Adds the account `name` and signs it in on the device at `home`.
    func signIn(_ name: String, home: URL) async throws {
        let (status, errors) = try await ServerProcess.runToExit(arguments: ["users", "add", name, "--password-stdin", "--database", database],
                                                                 input: "password \(name)\n")
        guard status == 0 else { throw ServerStartError(description: errors) }
        let login = try await TodoCLI.run(["sign-in", "--server", url, "--user", name, "--password-stdin"], home: home, input: "password \(name)\n")
        guard login.status == 0 else { throw ServerStartError(description: login.err) }
    }
}
