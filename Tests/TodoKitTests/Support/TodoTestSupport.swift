import Foundation
import ServerTestSupport
import TodoKit

/// One shared server for the TodoKit tests.
actor TodoTestServer {
    static let shared = TodoTestServer()
    /// One start for every caller (the actor is re-entered while the server starts).
    private var server: Task<ServerProcess, any Error>?

    func get() async throws -> ServerProcess {
        if server == nil {
            server = Task { try await ServerProcess.start(arguments: ["--database", try TempDir.make().appendingPathComponent("s.sqlite").path]) }
        }
        return try await server!.value
    }
}

/// A service on a fresh local store (a "device"), optionally syncing with a server.
func makeService(server: URL? = nil) throws -> TodoService {
    try TodoService(storePath: try TempDir.make().appendingPathComponent("device.sqlite").path, serverURL: server)
}

/// Waits (letting the main queue run) until a condition holds, or fails after a timeout.
@MainActor
func eventually(_ what: String = "condition", timeout: Double = 10, _ condition: @MainActor () -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline { throw TimeoutError(description: "timed out waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(5))
    }
}

struct TimeoutError: Error, CustomStringConvertible { var description: String }

extension AppStore {
    /// Presses one key.
    func key(_ key: KeyEvent) { send(.key(key)) }
}
