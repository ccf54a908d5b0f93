import Foundation

/// One `todo-server` process on a fresh SQLite file for every test of a test binary that asks
/// for it; each test keeps to tables (or rows) of its own.
public actor SharedServerProcess {
    public static let shared = SharedServerProcess()
    /// One start for every caller (the actor is re-entered while the server starts).
    private var server: Task<ServerProcess, any Error>?

    /// The server, started by the first caller.
    public func get() async throws -> ServerProcess {
        if server == nil {
            server = Task { try await ServerProcess.start(arguments: ["--database", try TempDir.make().appendingPathComponent("server.sqlite").path]) }
        }
        return try await server!.value
    }
}
