import ServerTestSupport
import Foundation
import Testing

/// The two stores every server test runs against.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// The `--database` argument for a fresh server of this backend.
    func databaseArgument(in dir: URL) throws -> String {
        switch self {
        case .sqlite:
            return dir.appendingPathComponent("server.sqlite").path
        case .postgres:
            guard let url = ProcessInfo.processInfo.environment["TODO_TEST_POSTGRES_URL"] else {
                throw ServerStartError(description:
                    "TODO_TEST_POSTGRES_URL is not set: run the tests with `make test` (it starts a throwaway PostgreSQL)")
            }
            return url
        }
    }
}

/// One shared server per backend for the whole run; tests isolate themselves by table name. The
/// in-process one serves most suites; the process serves those that need a socket (feeds, TLS,
/// several processes).
actor SharedServers {
    static let shared = SharedServers()
    /// One start per backend for every caller (the actor is re-entered while a server starts).
    private var servers: [Backend: Task<InProcessServer, any Error>] = [:]
    private var processes: [Backend: Task<ServerProcess, any Error>] = [:]
    private var authServers: [Backend: Task<InProcessServer, any Error>] = [:]

    /// The shared in-process server of a backend that requires tokens (`--auth required`).
    func authServer(_ backend: Backend) async throws -> InProcessServer {
        if authServers[backend] == nil {
            authServers[backend] = Task { try await InProcessServer.start(backend) { $0.auth = .required } }
        }
        return try await authServers[backend]!.value
    }

    /// The shared in-process server of a backend.
    func server(_ backend: Backend) async throws -> InProcessServer {
        if servers[backend] == nil {
            servers[backend] = Task { try await InProcessServer.start(backend) }
        }
        return try await servers[backend]!.value
    }

    /// The shared server process of a backend.
    func process(_ backend: Backend) async throws -> ServerProcess {
        if processes[backend] == nil {
            processes[backend] = Task { try await ServerProcess.start(arguments: ["--database", try backend.databaseArgument(in: TempDir.make())]) }
        }
        return try await processes[backend]!.value
    }
}

/// A table name no other test uses.
func uniqueTable(_ prefix: String = "t") -> String {
    prefix + "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
}
