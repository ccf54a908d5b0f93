import PostgresNIO

/// A statement PostgresNIO prepares once per connection and from then on only binds and
/// executes, so PostgreSQL parses and plans it once rather than on every request. The
/// single-item write runs this way: more inserts a second, with less of PostgreSQL's CPU per
/// insert (BENCHMARKS.md, "PostgreSQL beside PostgreSQL itself").
///
/// PostgresNIO's prepared-statement API reads the name, SQL and parameter types from the
/// statement's type, while ours are known only at run time (table, columns, filter); they are
/// handed over in a task-local value for the duration of one `execute`, which reads them there.
struct PostgresNamedStatement: PostgresPreparedStatement {
    /// What PostgresNIO reads from the type.
    struct Text: Sendable {
        var name: String
        var sql: String
        var types: [PostgresDataType]
    }

    @TaskLocal static var current = Text(name: "", sql: "", types: [])

    static var name: String { current.name }
    static var sql: String { current.sql }
    static var bindingDataTypes: [PostgresDataType] { current.types }

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }

    /// Runs `text` with `bindings` on `connection` and answers every row.
    static func rows(_ text: Text, _ bindings: PostgresBindings, on connection: PostgresConnection, logger: Logger) async throws -> [PostgresRow] {
        try await $current.withValue(text) {
            var rows: [PostgresRow] = []
            for try await row in try await connection.execute(PostgresNamedStatement(bindings: bindings), logger: logger) { rows.append(row) }
            return rows
        }
    }
}
