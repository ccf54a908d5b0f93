import FilterSQL
import Foundation
import GRDB
import GRDBSQLite

/// The embedded store: one SQLite file in WAL mode through a GRDB pool
/// (concurrent readers, one serialised writer).
public final class SQLiteDatabase: SQLDatabase {
    public let dialect: any SQLDialect = SQLiteDialect()
    private let pool: DatabasePool

    /// Opens (creating if needed) the database file, and its folder.
    public init(path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.maximumReaderCount = 8
        pool = try DatabasePool(path: path, configuration: config)
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try readOnCallingThread(body)
    }

    /// Reads are short and CPU-bound, and WAL readers never wait for the writer: running them on
    /// the request's own thread saves the two thread hops of GRDB's async read on every request.
    private func readOnCallingThread<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        try pool.read { db in try body(SQLiteSession(db: db)) }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await pool.write { db in try body(SQLiteSession(db: db)) }
    }

    public func migrate<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await write(body)
    }

    public func close() async {
        try? pool.close()
    }
}

/// Statements on one GRDB connection, using its statement cache.
struct SQLiteSession: SQLSession {
    let db: Database

    func query(_ sql: String, _ binds: [SQLValue]) throws -> SQLRows {
        let statement = try db.cachedStatement(sql: sql)
        statement.arguments = StatementArguments(binds.map(\.databaseValue))
        let columns = statement.columnNames
        // Stepped with the C API: GRDB's generic row decoding cost more than the query itself.
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        var rows: [[SQLValue]] = []
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: sql)
            }
            var values: [SQLValue] = []
            values.reserveCapacity(columns.count)
            for index in 0..<Int32(columns.count) { values.append(Self.value(handle, index)) }
            rows.append(values)
        }
        return SQLRows(columns: columns, rows: rows)
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

    func execute(_ sql: String, _ binds: [SQLValue]) throws {
        let statement = try db.cachedStatement(sql: sql)
        try statement.execute(arguments: StatementArguments(binds.map(\.databaseValue)))
    }
}

extension SQLValue {
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let i): self = .integer(i)
        case .double(let d): self = .real(d)
        case .string(let s): self = .text(s)
        case .blob(let data): self = .text(String(decoding: data, as: UTF8.self))
        }
    }

    var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let i): return i.databaseValue
        case .real(let d): return d.databaseValue
        case .text(let s): return s.databaseValue
        case .boolean(let b): return b.databaseValue
        }
    }
}
