import FilterSQL
import Foundation
import Logging
import PostgresNIO

/// Synchronous statements on one PostgreSQL connection; must run off the Swift concurrency
/// pool (on the slot's own dispatch queue), since it blocks while a query is in flight.
struct PostgresSession: SQLSession {
    let connection: PostgresConnection
    let logger: Logger

    /// The statement with its values bound, each with its own type.
    static func query(_ sql: String, _ binds: [SQLValue]) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let i): bindings.append(i)
            case .real(let d): bindings.append(d)
            case .text(let s): bindings.append(s)
            case .boolean(let b): bindings.append(b)
            }
        }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    func query(_ sql: String, _ binds: [SQLValue]) throws -> SQLRows {
        let query = Self.query(sql, binds)
        // NIO's future, waited for on this dispatch thread: no Swift task per statement (a task
        // and a semaphore cost two extra thread switches on each of a write's five statements).
        let result = try connection.query(query, logger: logger).wait()
        var columns: [String] = []
        var values: [[SQLValue]] = []
        values.reserveCapacity(result.rows.count)
        for row in result.rows {
            var rowValues: [SQLValue] = []
            if columns.isEmpty { columns = row.map(\.columnName) }
            for cell in row { rowValues.append(try SQLValue(cell)) }
            values.append(rowValues)
        }
        return SQLRows(columns: columns, rows: values)
    }

    func execute(_ sql: String, _ binds: [SQLValue]) throws {
        _ = try query(sql, binds)
    }

    /// NOTIFY inside the write's transaction: PostgreSQL delivers it to every listening process
    /// on commit, in commit order, and drops it on rollback.
    func announce(_ notice: ChangeNotice) throws {
        try execute("SELECT pg_notify($1, $2)", [.text(PostgresDatabase.changeChannel), .text(notice.payload)])
    }

    /// On the same channel as the row changes, so every process drops its cached schema before it
    /// hears of the write that needed the new table or column.
    func announceSchemaChange(of table: String) throws {
        try execute("SELECT pg_notify($1, $2)", [.text(PostgresDatabase.changeChannel), .text(ChangeNotice.schemaPayload(table))])
    }
}

extension SQLValue {
    init(_ cell: PostgresCell) throws {
        guard cell.bytes != nil else { self = .null; return }
        switch cell.dataType {
        case .bool: self = .boolean(try cell.decode(Bool.self))
        case .int2, .int4, .int8: self = .integer(try cell.decode(Int64.self))
        case .float4, .float8: self = .real(try cell.decode(Double.self))
        case .numeric: self = .real(Double(try cell.decode(String.self)) ?? .nan)
        default: self = .text(try cell.decode(String.self))
        }
    }
}
