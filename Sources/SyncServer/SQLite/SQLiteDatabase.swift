import FilterSQL
import Foundation
import GRDB
import GRDBSQLite
import TableProtocol

/// The embedded store: one SQLite file in WAL mode through a GRDB pool
/// (concurrent readers, one serialised writer).
public final class SQLiteDatabase: SQLDatabase {
    public let dialect: any SQLDialect = SQLiteDialect()
    private let pool: DatabasePool
    private let readers: SQLiteReaderPool
    private let changes: ChangeHub

    /// Opens (creating if needed) the database file, and its folder; committed writes are told to `changes`.
    public init(path: String, changes: ChangeHub = ChangeHub()) throws {
        self.changes = changes
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.maximumReaderCount = 8
        pool = try DatabasePool(path: path, configuration: config)  // creates the file in WAL mode
        readers = SQLiteReaderPool(path: path)
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try readOnCallingThread(body)
    }

    public func readStatement<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try readOnCallingThread(snapshot: false, body)
    }

    /// Reads are short and CPU-bound, and WAL readers never wait for the writer: they run on the
    /// request's own thread, on a plain reader connection (GRDB only writes).
    private func readOnCallingThread<T>(snapshot: Bool = true, _ body: (any SQLSession) throws -> T) throws -> T {
        try readers.withReader { reader in
            guard snapshot else { return try body(SQLiteSession(reader: reader)) }
            try reader.execute("BEGIN")
            do {
                let value = try body(SQLiteSession(reader: reader))
                try reader.execute("COMMIT")
                return value
            } catch {
                try? reader.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        let changes = self.changes
        return try await pool.write { db in try body(SQLiteSession(db: db, changes: changes)) }
    }

    public func migrate<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await write(body)
    }

    /// The request path's read connections (writes go through GRDB's single writer).
    public func connectionUse() async -> ConnectionUse {
        let use = readers.use
        return ConnectionUse(inUse: use.inUse, idle: use.idle, capacity: nil, waiting: 0)
    }

    public func close() async {
        readers.close()
        try? pool.close()
    }
}

/// The changes one write transaction announces, published together at its commit.
/// Only the writer's queue touches it (the transaction's body, then its commit hook).
final class TransactionNotices: @unchecked Sendable {
    var list: [ChangeNotice] = []
}

/// Statements on one connection (GRDB's writer, or a reader), through its statement cache.
struct SQLiteSession: SQLSession {
    private let connection: OpaquePointer?
    private let statement: (String) throws -> SQLiteStatement
    /// The writer's connection, the hub its commits go to, and this transaction's announcements; nil on a reader.
    private let writer: (db: Database, changes: ChangeHub, notices: TransactionNotices)?

    init(db: Database, changes: ChangeHub) {
        connection = db.sqliteConnection
        statement = { try db.cachedStatement(sql: $0).sqliteStatement }
        writer = (db, changes, TransactionNotices())
    }

    init(reader: SQLiteReader) {
        connection = reader.handle
        statement = { try reader.statement($0) }
        writer = nil
    }

    func announce(_ notice: ChangeNotice) throws {
        guard let (db, changes, notices) = writer else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a read-only session cannot announce a change")
        }
        // One process owns the file, so its own hub is every subscriber. GRDB runs commit hooks on
        // the writer in commit order, so events leave in `updatedAt` order, and never for a rollback.
        // One hook per transaction: registering one walks GRDB's statement cache, which cost more
        // than the insert itself in a batch (BENCHMARKS.md, "OfflineSync": push of 10,000).
        if notices.list.isEmpty {
            db.afterNextTransaction(onCommit: { _ in for notice in notices.list { changes.publish(notice) } })
        }
        notices.list.append(notice)
    }

    func query(_ sql: String, _ binds: [SQLValue]) throws -> SQLRows {
        // Bound and stepped with the C API: GRDB's generic arguments and row decoding cost
        // more than the query itself on the hot path.
        let handle = try prepared(sql, binds)
        defer { sqlite3_reset(handle) }
        let count = sqlite3_column_count(handle)
        let columns = (0..<count).map { String(cString: sqlite3_column_name(handle, $0)) }
        var rows: [[SQLValue]] = []
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw error(code, sql) }
            var values: [SQLValue] = []
            values.reserveCapacity(Int(count))
            for index in 0..<count { values.append(Self.value(handle, index)) }
            rows.append(values)
        }
        return SQLRows(columns: columns, rows: rows)
    }

    /// Column values go from SQLite's buffers into the JSON bytes: no strings, rows or objects
    /// in between (this is every pull page).
    func queryJSONArray(_ sql: String, _ binds: [SQLValue], schema: TableSchema, limit: Int) throws -> (json: [UInt8], rows: Int) {
        let handle = try prepared(sql, binds)
        defer { sqlite3_reset(handle) }
        // Each column's `{"name":` or `,"name":`, laid end to end in one buffer.
        var keyBytes: [UInt8] = []
        var columns: [(key: Range<Int>, boolean: Bool)] = []
        for index in 0..<sqlite3_column_count(handle) {
            let name = String(cString: sqlite3_column_name(handle, index))
            let start = keyBytes.count
            keyBytes.append(UInt8(ascii: index == 0 ? "{" : ","))
            JSONWriter.writeString(name, into: &keyBytes)
            keyBytes.append(UInt8(ascii: ":"))
            columns.append((start..<keyBytes.count, schema.column(named: name)?.type == .boolean))
        }
        var out = JSONPageBuffer(capacity: 64 + min(limit, 1_000) * 256)
        out.reserve(1)
        out.append(UInt8(ascii: "["))
        var rows = 0
        try keyBytes.withUnsafeBufferPointer { keys in
            while rows <= limit {
                let code = sqlite3_step(handle)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else { throw error(code, sql) }
                rows += 1
                if rows > limit { break }  // the extra row only says that more remain
                if rows > 1 {
                    out.reserve(1)
                    out.append(UInt8(ascii: ","))
                }
                for (index, column) in columns.enumerated() {
                    let key = UnsafeBufferPointer(rebasing: keys[column.key])
                    out.reserve(key.count)
                    out.append(key)
                    // The value API skips the statement checks each sqlite3_column_* call repeats.
                    Self.writeJSON(sqlite3_column_value(handle, Int32(index)), boolean: column.boolean, into: &out)
                }
                out.reserve(1)
                out.append(UInt8(ascii: "}"))
            }
        }
        out.reserve(1)
        out.append(UInt8(ascii: "]"))
        return (out.bytes, rows)
    }

    /// One column as JSON, with the same typing as `StoredItem`.
    private static func writeJSON(_ value: OpaquePointer?, boolean: Bool, into out: inout JSONPageBuffer) {
        switch sqlite3_value_type(value) {
        case SQLITE_NULL: out.appendNull()
        case SQLITE_INTEGER:
            let number = sqlite3_value_int64(value)
            if boolean { out.appendBool(number != 0) } else { out.appendNumber(Double(number)) }
        case SQLITE_FLOAT:
            let number = sqlite3_value_double(value)
            if boolean { out.appendBool(number != 0) } else { out.appendNumber(number) }
        default:
            guard let text = sqlite3_value_text(value) else { out.appendString(""); return }
            let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
            // SQLite does not check UTF-8: decoding repairs what another writer may have stored.
            if !out.appendASCIIString(bytes) { out.appendString(String(decoding: bytes, as: UTF8.self)) }
        }
    }

    func execute(_ sql: String, _ binds: [SQLValue]) throws {
        let handle = try prepared(sql, binds)
        defer { sqlite3_reset(handle) }
        var code = sqlite3_step(handle)
        while code == SQLITE_ROW { code = sqlite3_step(handle) }
        guard code == SQLITE_DONE else { throw error(code, sql) }
    }

    /// The cached statement for `sql`, reset and bound to `binds` (numbered placeholders).
    private func prepared(_ sql: String, _ binds: [SQLValue]) throws -> SQLiteStatement {
        let handle = try statement(sql)
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        guard Int(sqlite3_bind_parameter_count(handle)) == binds.count else {
            throw DatabaseError(message: "\(binds.count) values for \(sqlite3_bind_parameter_count(handle)) placeholders", sql: sql)
        }
        for (offset, value) in binds.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let i): code = sqlite3_bind_int64(handle, index, i)
            case .real(let d): code = sqlite3_bind_double(handle, index, d)
            case .boolean(let b): code = sqlite3_bind_int64(handle, index, b ? 1 : 0)
            case .text(let s): code = sqlite3_bind_text(handle, index, s, Int32(s.utf8.count), Self.transient)
            }
            guard code == SQLITE_OK else { throw error(code, sql) }
        }
        return handle
    }

    /// SQLite copies bound text (the Swift string's buffer does not outlive the call).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func error(_ code: Int32, _ sql: String) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }

    private static func value(_ handle: SQLiteStatement, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_NULL: return .null
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        default:
            // Text and blobs alike are read as UTF-8 text (blobs are never written by the server).
            guard let text = sqlite3_column_text(handle, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, index))), as: UTF8.self))
        }
    }

}
