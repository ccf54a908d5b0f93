import FilterSQL
import Foundation
import TableProtocol

/// Hands out `updatedAt` values that strictly increase per namespace and table in commit order.
///
/// The clock row stays locked until the transaction commits, so a later commit always carries
/// a later timestamp — an incremental pull (which reads one namespace's table) can never skip an
/// acknowledged change, even with several server processes on one PostgreSQL. Each namespace
/// (an account) has its own row, so writes of different accounts never wait on each other.
enum TableClock {
    /// The next timestamp for `owner`'s `table` (stored as `schema` says) in ISO-8601 millisecond form.
    static func next(for table: String, in schema: TableSchema, owner: String, dialect: any SQLDialect, session: any SQLSession) throws -> String {
        if let open = dialect.openForWriteSQL(dialect.quote(schema.physicalTable)) { try session.execute(open, []) }
        let rows = try session.query(dialect.advanceClockSQL, [.text(table), .integer(nowMs), .text(owner)]).rows
        guard let ms = rows.first?.first?.int64 else { throw TableClockError() }
        return FilterDateTime(ticksSinceEpoch: ms * 10_000).isoString
    }

    /// Now in milliseconds since 1970: the clock's lowest next value.
    static var nowMs: Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

    struct TableClockError: Error, CustomStringConvertible {
        var description: String { "the table clock did not return a value" }
    }
}
