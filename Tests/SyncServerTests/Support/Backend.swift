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

/// One shared server per backend for the whole run; tests isolate themselves by table name.
actor SharedServers {
    static let shared = SharedServers()
    /// One start per backend for every caller (the actor is re-entered while a server starts).
    private var servers: [Backend: Task<ServerProcess, any Error>] = [:]

    func server(_ backend: Backend) async throws -> ServerProcess {
        if servers[backend] == nil {
            servers[backend] = Task { try await ServerProcess.start(arguments: ["--database", try backend.databaseArgument(in: TempDir.make())]) }
        }
        return try await servers[backend]!.value
    }
}

/// A table name no other test uses.
func uniqueTable(_ prefix: String = "t") -> String {
    prefix + "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
}
