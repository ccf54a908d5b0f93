import Foundation
import ServerTestSupport

/// Runs SQL straight on a server's store with the `sqlite3` or `psql` command line, as an
/// import or an operator would, past the server's own rules.
enum StoreSQL {
    static func run(_ sql: String, backend: Backend, server: InProcessServer) throws {
        _ = try query(sql, backend: backend, server: server)
    }

    /// Runs `sql` and answers its output lines (one per row, columns separated by `|`).
    static func query(_ sql: String, backend: Backend, server: InProcessServer?) throws -> [String] {
        let child: ChildProcess
        switch backend {
        case .sqlite:
            guard let server else { throw ServerStartError(description: "SQLite needs the server whose file to open") }
            child = try ChildProcess("sqlite3", ["-cmd", ".timeout 5000", server.database, sql], captureOutput: true)
        case .postgres:
            return try query(sql, database: try server?.database ?? backend.databaseArgument(in: URL(fileURLWithPath: "/tmp")))
        }
        return try output(of: child, sql)
    }

    /// Runs `sql` on a PostgreSQL database (a URL) and answers its output lines.
    static func query(_ sql: String, database: String) throws -> [String] {
        try output(of: try ChildProcess("psql", [database, "-X", "-q", "-A", "-t", "-c", sql], captureOutput: true), sql)
    }

    private static func output(of child: ChildProcess, _ sql: String) throws -> [String] {
        let output = String(decoding: child.standardOutput!.readDataToEndOfFile(), as: UTF8.self)
        guard child.wait() == 0 else { throw ServerStartError(description: "running SQL on the store failed: \(sql)") }
        return output.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    /// The physical table that holds a namespace's table (the anonymous namespace: tests without accounts).
    static func physicalTable(of table: String, namespace: String = "", backend: Backend, server: InProcessServer) throws -> String {
        let rows = try query(#"SELECT "physical" FROM "__tables" WHERE "ns" = '\#(namespace)' AND "tbl" = '\#(table.lowercased())'"#, backend: backend, server: server)
        guard let physical = rows.first else { throw ServerStartError(description: "no table '\(table)' in namespace '\(namespace)'") }
        return physical
    }

    /// Drops a table as an operator would by hand: its physical table, and its place in the
    /// catalog. Only on a database of its own (`InProcessServer.withOwnDatabase`): a physical
    /// table also holds other namespaces' tables.
    static func dropByHand(_ table: String, backend: Backend, server: InProcessServer) throws {
        let physical = try physicalTable(of: table, backend: backend, server: server)
        try run(#"DROP TABLE "\#(physical)"; DELETE FROM "__physical" WHERE "name" = '\#(physical)'; "#
                + #"DELETE FROM "__tables" WHERE "physical" = '\#(physical)'; DELETE FROM "__columns" WHERE "tbl" = '\#(table.lowercased())'"#,
                backend: backend, server: server)
    }
}
