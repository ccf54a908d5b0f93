import Foundation
import ServerTestSupport

/// A server with `--auth required` on a backend, and the accounts a test made on it.
struct AuthServer {
    let server: ServerProcess
    let backend: Backend
    let database: String
    let client: TableClient

    /// Starts a server requiring tokens; extra arguments are appended.
    init(_ backend: Backend, arguments: [String] = []) async throws {
        self.backend = backend
        database = try backend.databaseArgument(in: try TempDir.make())
        server = try await ServerProcess.start(arguments: ["--database", database, "--auth", "required"] + arguments)
        client = TableClient(server)
    }

    /// A server already started on `database`.
    init(attachedTo server: ServerProcess, backend: Backend, database: String) {
        self.server = server
        self.backend = backend
        self.database = database
        client = TableClient(server)
    }

    /// Adds an account with a name no other test uses; answers the name.
    func addUser(_ prefix: String = "user", password: String = "correct horse") async throws -> String {
        let name = prefix + "-" + UUID().uuidString.prefix(8).lowercased()
        try await Self.users(["add", name, "--password-stdin"], database: database, input: password + "\n")
        return name
    }

    /// Runs `todo-server users …` on `database`; throws unless it exits 0.
    static func users(_ arguments: [String], database: String, input: String? = nil) async throws {
        let (status, errors) = try await ServerProcess.runToExit(arguments: ["users"] + arguments + ["--database", database], input: input)
        guard status == 0 else { throw ServerStartError(description: "users \(arguments.first ?? "") failed (\(status)): \(errors)") }
    }

    /// Runs SQL on the server's database as an operator would; one line per row.
    func sql(_ statement: String) async throws -> [String] {
        try DatabaseInspector(backend: backend, database: database).rows(statement)
    }

    /// Logs in and answers the token.
    func token(_ user: String, password: String = "correct horse") async throws -> String {
        let reply = try await client.send("POST", ".auth/login", body: ["username": user, "password": password])
        guard reply.status == 200, let token = reply.object["authenticationToken"] as? String else {
            throw ServerStartError(description: "login failed: \(reply.status) \(reply.text)")
        }
        return token
    }

    /// A client that sends `token` in `X-ZUMO-AUTH`.
    func client(token: String) -> AuthedClient { AuthedClient(base: client, headers: ["X-ZUMO-AUTH": token]) }
}

/// Table requests with an access token.
struct AuthedClient {
    let base: TableClient
    let headers: [String: String]

    func get(_ path: String, _ query: [(String, String)] = []) async throws -> TableClient.Reply {
        try await base.send("GET", path, query: query, headers: headers)
    }
    func post(_ path: String, _ body: Any) async throws -> TableClient.Reply { try await base.send("POST", path, body: body, headers: headers) }
    func patch(_ path: String, _ body: Any, ifMatch: String? = nil) async throws -> TableClient.Reply {
        try await base.send("PATCH", path, body: body, headers: headers.merging(ifMatch.map { ["If-Match": $0] } ?? [:]) { $1 })
    }
    func delete(_ path: String) async throws -> TableClient.Reply { try await base.send("DELETE", path, headers: headers) }
}
