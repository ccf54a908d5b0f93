import Foundation
import ServerTestSupport

/// Looks at a server's database from outside, with the `sqlite3` and `psql` command lines, to
/// see exactly which tables and columns a request left behind.
struct DatabaseInspector {
    let backend: Backend
    /// The server's `--database` argument.
    let database: String

    /// Client tables (none of the server's own `__` ones), sorted.
    func tables() throws -> [String] {
        switch backend {
        case .sqlite:
            return try lines("/usr/bin/sqlite3", [database, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_\\_%' ESCAPE '\\' ORDER BY name"])
        case .postgres:
            return try psql("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name NOT LIKE '\\_\\_%' ORDER BY table_name")
        }
    }

    /// A table's column names, sorted (empty when the table does not exist).
    func columns(of table: String) throws -> [String] {
        switch backend {
        case .sqlite:
            return try lines("/usr/bin/sqlite3", [database, "SELECT name FROM pragma_table_info('\(table)') ORDER BY name"])
        case .postgres:
            return try psql("SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '\(table)' ORDER BY column_name")
        }
    }

    /// A database of this backend no other test uses: a new SQLite file, or a new PostgreSQL
    /// database in the test cluster (table counts must not see other tests' tables).
    static func fresh(_ backend: Backend) throws -> String {
        let shared = try backend.databaseArgument(in: try TempDir.make())
        guard backend == .postgres else { return shared }
        let name = "limits_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        _ = try DatabaseInspector(backend: backend, database: shared).psql("CREATE DATABASE \(name)")
        var components = URLComponents(string: shared)!
        components.path = "/" + name
        return components.string!
    }

    private func psql(_ sql: String) throws -> [String] {
        try lines("/usr/bin/psql", [database, "-X", "-v", "ON_ERROR_STOP=1", "-A", "-t", "-q", "-c", sql])
    }

    private func lines(_ executable: String, _ arguments: [String]) throws -> [String] {
        let child = try ChildProcess(executable, arguments, captureOutput: true, captureError: true)
        let output = String(decoding: child.standardOutput!.readDataToEndOfFile(), as: UTF8.self)
        let error = String(decoding: child.standardError!.readDataToEndOfFile(), as: UTF8.self)
        guard child.wait() == 0 else { throw ServerStartError(description: "\(executable) failed: \(error)") }
        return output.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }
}
