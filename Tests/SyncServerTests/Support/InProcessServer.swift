import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ServerTestSupport
@testable import SyncServer
import Synchronization

/// The server's application driven in this process through Hummingbird's router test client: the
/// same routes, middleware, services and database as `todo-server`, without a socket or a child
/// process. Replies are whole (a change feed, which never ends, needs a real process).
final class InProcessServer: Sendable {
    let backend: Backend
    /// The `--database` argument: a SQLite path or a PostgreSQL URL.
    let database: String
    let users: UserStore
    private let client: any TestClientProtocol
    private let stopping: AsyncStream<Void>.Continuation
    private let running: Task<Void, any Error>
    private let built: SyncServerApplication.Built

    private init(backend: Backend, database: String, built: SyncServerApplication.Built, client: any TestClientProtocol,
                 stopping: AsyncStream<Void>.Continuation, running: Task<Void, any Error>) {
        self.backend = backend
        self.database = database
        self.built = built
        self.users = built.users
        self.client = client
        self.stopping = stopping
        self.running = running
    }

    /// A server on `backend` (a fresh SQLite file, or the test cluster's database), configured as
    /// the command line would (`configure`), with tokens issued and checked by `now`.
    static func start(_ backend: Backend, configure: (inout ServerConfiguration) -> Void = { _ in },
                      now: @escaping @Sendable () -> Date = Date.init) async throws -> InProcessServer {
        let database = try backend.databaseArgument(in: try TempDir.make())
        var configuration = ServerConfiguration(database: database)
        configuration.maxTables = 100_000  // tests share one database on PostgreSQL, as the process tests do
        configuration.passwordRounds = ServerConfiguration.fewestPasswordRounds  // as `ServerProcess.testEnvironment` says
        // todo-server's channel: the processes on the shared database must hear this server's
        // schema changes, and it theirs.
        configuration.changeChannel = "offline_todo_changes"
        configure(&configuration)
        var logger = Logger(label: "todo-server-test")
        logger.logLevel = .warning
        let built = try await SyncServerApplication.build(configuration, logger: logger, now: now)
        let (clients, handOver) = AsyncStream.makeStream(of: (any TestClientProtocol).self)
        let (stop, stopping) = AsyncStream.makeStream(of: Void.self)
        let application = built.application
        let running = Task {
            try await application.test(.router) { client in
                handOver.yield(client)
                for await _ in stop { break }
            }
        }
        var iterator = clients.makeAsyncIterator()
        guard let client = await iterator.next() else {
            try await running.value
            throw ServerStartError(description: "the in-process server did not start")
        }
        return InProcessServer(backend: backend, database: configuration.database, built: built, client: client, stopping: stopping, running: running)
    }

    /// Runs `body` on a server of its own over a database no other test uses (`DatabaseInspector.fresh`).
    static func withOwnDatabase<T>(_ backend: Backend, _ body: (InProcessServer) async throws -> T) async throws -> T {
        let database = try DatabaseInspector.fresh(backend)
        return try await with(backend, configure: { $0.database = database }, body)
    }

    /// Runs `body` on a server of its own, stopped after.
    static func with<T>(_ backend: Backend, configure: (inout ServerConfiguration) -> Void = { _ in },
                        now: @escaping @Sendable () -> Date = Date.init, _ body: (InProcessServer) async throws -> T) async throws -> T {
        let server = try await start(backend, configure: configure, now: now)
        do {
            let value = try await body(server)
            await server.stop()
            return value
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Ends the services and closes the database.
    func stop() async {
        stopping.finish()
        _ = try? await running.value
        await built.close()
    }

    /// The store the application runs on (to look inside: read replicas, say).
    var store: any SQLDatabase { built.database }
    /// The table service the routes call.
    var service: TableService { built.service }

    /// One request, answered whole.
    func send(_ method: String, _ uri: String, headers: [String: String], body: Data?) async throws -> TableClient.Reply {
        var fields = HTTPFields()
        for (name, value) in headers { if let name = HTTPField.Name(name) { fields[name] = value } }
        let response = try await client.executeRequest(
            uri: uri, method: HTTPRequest.Method(rawValue: method) ?? .get, headers: fields, body: body.map { ByteBuffer(bytes: $0) })
        var replyHeaders: [String: String] = [:]
        for field in response.headers { replyHeaders[field.name.canonicalName] = field.value }
        return TableClient.Reply(status: response.status.code, headers: replyHeaders, data: Data(buffer: response.body))
    }
}
