import Foundation
import ServerTestSupport

/// Looks at a server's database from outside, with the `sqlite3` and `psql` command lines, to
/// see exactly which tables and columns (in its namespace catalog) a request left behind.
struct DatabaseInspector {
    let backend: Backend
    /// The server's `--database` argument.
    let database: String

    /// A namespace's tables (the anonymous one: tests without accounts), sorted.
    func tables(namespace: String = "") throws -> [String] {
        try rows(#"SELECT "tbl" FROM "__tables" WHERE "ns" = '\#(namespace)' ORDER BY "tbl""#)
    }

    /// A namespace's column names of a table, system columns included, sorted (empty when the
    /// namespace has no such table).
    func columns(of table: String, namespace: String = "") throws -> [String] {
        guard try tables(namespace: namespace).contains(table.lowercased()) else { return [] }
        let properties = try rows(#"SELECT "name" FROM "__columns" WHERE "ns" = '\#(namespace)' AND "tbl" = '\#(table.lowercased())'"#)
        return (["id", "createdAt", "updatedAt", "version", "deleted"] + properties).sorted()
    }

    /// Physical tables holding rows (the server's own catalog tables left out), sorted.
    func physicalTables() throws -> [String] {
        try rows(#"SELECT "name" FROM "__physical" ORDER BY "name""#)
    }

    /// Runs a query; one line per row.
    func rows(_ sql: String) throws -> [String] {
        switch backend {
        case .sqlite: return try lines("/usr/bin/sqlite3", [database, sql])
        case .postgres: return try psql(sql)
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
