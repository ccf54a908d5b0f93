import FilterSQL
import Foundation
import Logging
import PostgresNIO

/// Synchronous statements on one PostgreSQL connection; must run off the Swift concurrency
/// pool (on the slot's own dispatch queue), since it blocks while a query is in flight.
struct PostgresSession: SQLSession {
    let connection: PostgresConnection
    let logger: Logger
    /// Where this transaction's notices go once it has committed (`finish`).
    let notifier: PostgresNotifier
    /// This transaction's notices.
    let notices = PendingNotices()

    /// The payloads to NOTIFY when the transaction ends; only the connection's queue touches it.
    final class PendingNotices: @unchecked Sendable {
        var payloads: [String] = []
    }

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

    /// The parameter type a value is bound with (0, unspecified, for a null: PostgreSQL infers it).
    static func dataType(_ value: SQLValue) -> PostgresDataType {
        switch value {
        case .null: return .null
        case .integer: return .int8
        case .real: return .float8
        case .text: return .text
        case .boolean: return .bool
        }
    }

    func query(_ sql: String, _ binds: [SQLValue]) throws -> SQLRows {
        let query = Self.query(sql, binds)
        // NIO's future, waited for on this dispatch thread (the body is synchronous): no Swift
        // task and semaphore per statement.
        return try Self.rows(of: connection.query(query, logger: logger).wait().rows)
    }

    /// A result's rows, each value typed by its PostgreSQL type.
    static func rows(of result: some Sequence<PostgresRow>) throws -> SQLRows {
        var columns: [String] = []
        var values: [[SQLValue]] = []
        for row in result {
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

    /// Kept until the transaction commits, then handed to the notifier (dropped on rollback).
    func announce(_ notice: ChangeNotice) throws {
        notices.payloads.append(notice.payload)
    }

    /// On the same channel as the row changes, so every process drops its cached schema before it
    /// hears of the write that needed the new table or column.
    func announceSchemaChange(of table: String) throws {
        notices.payloads.append(ChangeNotice.schemaPayload(table))
    }

    /// Runs `end` (COMMIT), then hands the transaction's notices to the notifier: nobody hears of
    /// a write before it committed, and the commit does not wait for a NOTIFY (see `PostgresNotifier`).
    func finish(with end: String?) throws {
        if let end { try execute(end, []) }
        notifier.post(notices.payloads)
        notices.payloads = []
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
