import Foundation
import ServerTestSupport

/// A server with `--auth required` on a backend, and the accounts a test made on it: the shared
/// in-process one, or a process of its own when the test passes flags or needs a socket.
struct AuthServer {
    /// The process, when the test has one.
    let server: ServerProcess?
    private let inProcess: InProcessServer?
    let backend: Backend
    let database: String
    let client: TableClient

    /// A server requiring tokens: the backend's shared in-process one, or (with `arguments`, which
    /// are appended to its command line, or `process`) a process of its own.
    init(_ backend: Backend, arguments: [String] = [], process: Bool = false) async throws {
        self.backend = backend
        if arguments.isEmpty && !process {
            let shared = try await SharedServers.shared.authServer(backend)
            server = nil
            inProcess = shared
            database = shared.database
            client = TableClient(shared)
        } else {
            database = try backend.databaseArgument(in: try TempDir.make())
            let started = try await ServerProcess.start(arguments: ["--database", database, "--auth", "required"] + arguments)
            server = started
            inProcess = nil
            client = TableClient(started)
        }
    }

    /// A server already started on `database`.
    init(attachedTo server: ServerProcess, backend: Backend, database: String) {
        self.server = server
        inProcess = nil
        self.backend = backend
        self.database = database
        client = TableClient(server)
    }

    /// The port of the server's process (tests that open change feeds start one).
    var port: Int { server?.port ?? 0 }

    /// Adds an account with a name no other test uses; answers the name.
    func addUser(_ prefix: String = "user", password: String = "correct horse") async throws -> String {
        let name = prefix + "-" + UUID().uuidString.prefix(8).lowercased()
        if let inProcess {
            try await inProcess.users.add(name: name, password: password)
        } else {
            try await Self.users(["add", name, "--password-stdin"], database: database, input: password + "\n")
        }
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
    func send(_ method: String, _ path: String, query: [(String, String)] = [], body: Any? = nil) async throws -> TableClient.Reply {
        try await base.send(method, path, query: query, body: body, headers: headers)
    }
}
