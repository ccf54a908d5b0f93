import FilterSQL
import Foundation
import GRDB

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
        try await pool.read { db in try body(SQLiteSession(db: db)) }
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
        var rows: [[SQLValue]] = []
        let cursor = try Row.fetchCursor(statement)
        while let row = try cursor.next() {
            var values: [SQLValue] = []
            values.reserveCapacity(columns.count)
            for i in 0..<columns.count {
                let value: DatabaseValue = row[i]
                values.append(SQLValue(value))
            }
            rows.append(values)
        }
        return SQLRows(columns: columns, rows: rows)
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
