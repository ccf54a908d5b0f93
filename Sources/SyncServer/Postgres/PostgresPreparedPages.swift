import FilterSQL
import Logging
import PostgresNIO
import Synchronization

/// The pull-page statements prepared on one pooled connection, and the page read through them.
///
/// A page runs as a prepared statement (PostgreSQL parses and plans it once per connection, not
/// on every request) whose rows PostgresNIO hands to a callback on the connection's event loop,
/// which writes them into the page's JSON as they arrive: no Swift task switch per row, as its
/// async row sequence costs. Against the unnamed statement read as a whole, PostgreSQL's CPU per
/// page fell and the page rate rose (with the `LIMIT` in the text, `SelectStatement`;
/// BENCHMARKS.md, "The PostgreSQL page's CPU").
final class PostgresPreparedPages: Sendable {
    private enum Entry {
        case prepared(PreparedQuery)
        /// PostgreSQL could not prepare it without parameter types (a null's type nothing implies).
        case unnamed
    }

    private struct State {
        /// The connection the statements were prepared on; a new connection starts empty. (Its
        /// address cannot be a closed one's while that one's statements, which hold it, are kept.)
        var connection: ObjectIdentifier?
        var entries: [String: Entry] = [:]
    }

    private let state = Mutex(State())

    /// Reads a page with `sql` on `connection`: prepared when `names` has room for it (on this
    /// connection the first time), else unnamed.
    func readJSONArray(_ sql: String, _ binds: [SQLValue], limit: Int, on connection: PostgresConnection,
                       names: PostgresStatementNames, logger: Logger) async throws -> (json: [UInt8], rows: Int) {
        let types = binds.map(PostgresSession.dataType)
        let key = types.map { "\($0.rawValue)," }.joined() + sql
        switch entry(for: key, on: connection) {
        case .prepared(let statement)?:
            return try await execute(statement, key: key, binds, limit: limit, names: names)
        case .unnamed?:
            return try await readUnnamed(sql, binds, limit: limit, on: connection, logger: logger)
        case nil:
            guard names.name(for: key) != nil else { return try await readUnnamed(sql, binds, limit: limit, on: connection, logger: logger) }
            let statement: PreparedQuery
            do {
                statement = try await connection.prepare(query: PostgresTypedPlaceholders.cast(sql, types: types)).get()
            } catch where PostgresFailure.isStatementFailure(error) {
                // Either the statement fails anyway (a table or column not there: the unnamed read
                // throws that), or it needs its parameter types sent: it runs unnamed from now on.
                let page = try await readUnnamed(sql, binds, limit: limit, on: connection, logger: logger)
                set(.unnamed, for: key)
                return page
            }
            set(.prepared(statement), for: key)
            return try await execute(statement, key: key, binds, limit: limit, names: names)
        }
    }

    private func execute(_ statement: PreparedQuery, key: String, _ binds: [SQLValue], limit: Int,
                         names: PostgresStatementNames) async throws -> (json: [UInt8], rows: Int) {
        let page = PostgresJSONPage(limit: limit, binaryRows: true)
        do {
            try await statement.execute(binds.map(Self.data), { row in try page.add(row) }).get()
        } catch where PostgresFailure.isStatementFailure(error) {
            // A table or column that is no longer there, or a plan that no longer fits: prepare
            // it anew next time rather than keep the failure.
            set(nil, for: key)
            names.retire(key)
            _ = statement.deallocate()
            throw error
        }
        return page.finish()
    }

    private func readUnnamed(_ sql: String, _ binds: [SQLValue], limit: Int, on connection: PostgresConnection,
                             logger: Logger) async throws -> (json: [UInt8], rows: Int) {
        let result = try await connection.query(PostgresSession.query(sql, binds), logger: logger).get()
        let page = PostgresJSONPage(limit: limit)
        for row in result.rows {
            guard try page.add(row) else { break }
        }
        return page.finish()
    }

    private func entry(for key: String, on connection: PostgresConnection) -> Entry? {
        state.withLock { state in
            if state.connection != ObjectIdentifier(connection) { state = State(connection: ObjectIdentifier(connection)) }
            return state.entries[key]
        }
    }

    private func set(_ entry: Entry?, for key: String) {
        state.withLock { $0.entries[key] = entry }
    }

    private static func data(_ value: SQLValue) -> PostgresData {
        switch value {
        case .null: return .null
        case .integer(let i): return PostgresData(int64: i)
        case .real(let d): return PostgresData(double: d)
        case .text(let s): return PostgresData(string: s)
        case .boolean(let b): return PostgresData(bool: b)
        }
    }
}
