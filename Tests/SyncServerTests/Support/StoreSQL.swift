import Foundation
import ServerTestSupport

/// Runs SQL straight on a server's store with the `sqlite3` or `psql` command line, as an
/// import or an operator would, past the server's own rules.
enum StoreSQL {
    static func run(_ sql: String, backend: Backend, server: ServerProcess) throws {
        let child: ChildProcess
        switch backend {
        case .sqlite:
            child = try ChildProcess("sqlite3", ["-cmd", ".timeout 5000", server.databaseArgument ?? "", sql])
        case .postgres:
            child = try ChildProcess("psql", [try backend.databaseArgument(in: URL(fileURLWithPath: "/tmp")), "-q", "-c", sql])
        }
        guard child.wait() == 0 else { throw ServerStartError(description: "running SQL on the store failed: \(sql)") }
    }
}
