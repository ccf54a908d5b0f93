import Foundation
import GRDB
import TableProtocol

/// The shipped local store: one SQLite file (WAL) holding the app's tables and the three
/// system tables. Tables are created from their definitions; new columns are added on open.
public final class SQLiteSyncStore: SyncDataSource {
    private let pool: DatabasePool
    private let definitions: [String: SyncTableDefinition]
    private let searchIndexed: Set<String>

    /// Opens or creates the store at `path` with the given tables.
    public init(path: String, tables: [SyncTableDefinition]) throws {
        for table in tables {
            guard MemberName.isValid(table.name), !table.name.hasPrefix("MS_") else {
                throw SyncError(.invalidParameter, "Invalid table name '\(table.name)'")
            }
            for column in table.columns.keys + table.indexes.flatMap({ $0 }) where !MemberName.isValid(column) {
                throw SyncError(.invalidParameter, "Invalid column name '\(column)' in table '\(table.name)'")
            }
            for column in table.searchable where table.column(named: column)?.type != .text {
                throw SyncError(.invalidParameter, "The searchable column '\(column)' of table '\(table.name)' must be a declared text column")
            }
        }
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var config = Configuration()
        config.busyMode = .timeout(10)
        // WAL with synchronous=NORMAL: a commit survives a process crash (kill -9); only an OS
        // crash or power loss can drop the last commits. Saves an fsync per pushed operation.
        // Recursive triggers make INSERT OR REPLACE fire delete triggers for the row it replaces,
        // which keeps text-search indexes exact.
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA recursive_triggers = ON") }
        pool = try DatabasePool(path: path, configuration: config)
        definitions = Dictionary(tables.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { $1 })
        searchIndexed = try pool.write { db in try StoreMigrator.migrate(db, tables: tables) }
    }

    public func definition(of table: String) -> SyncTableDefinition? { definitions[table.lowercased()] }

    public func read<T>(_ body: (any SyncStoreSession) throws -> T) throws -> T {
        try pool.read { db in try body(SQLiteStoreSession(db: db, definitions: definitions, searchIndexed: searchIndexed)) }
    }

    public func write<T>(_ body: (any SyncStoreSession) throws -> T) throws -> T {
        try pool.write { db in try body(SQLiteStoreSession(db: db, definitions: definitions, searchIndexed: searchIndexed)) }
    }
}

/// Creates the system tables and the app's tables, and adds declared columns that are missing.
enum StoreMigrator {
    /// Returns the lower-cased names of the tables that have a working text-search index.
    static func migrate(_ db: Database, tables: [SyncTableDefinition]) throws -> Set<String> {
        var searchIndexed: Set<String> = []
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS "MS_TableOperations" (
                "id" INTEGER PRIMARY KEY AUTOINCREMENT,
                "tableName" TEXT NOT NULL COLLATE NOCASE,
                "itemId" TEXT NOT NULL COLLATE NOCASE,
                "type" TEXT NOT NULL,
                "item" TEXT);
            CREATE INDEX IF NOT EXISTS "MS_TableOperations_item" ON "MS_TableOperations" ("tableName", "itemId");
            CREATE TABLE IF NOT EXISTS "MS_TableOperationErrors" (
                "id" INTEGER PRIMARY KEY AUTOINCREMENT,
                "operationId" INTEGER NOT NULL,
                "tableName" TEXT NOT NULL COLLATE NOCASE,
                "itemId" TEXT NOT NULL COLLATE NOCASE,
                "operationType" TEXT NOT NULL,
                "statusCode" INTEGER,
                "code" INTEGER NOT NULL,
                "message" TEXT NOT NULL,
                "clientItem" TEXT,
                "serverItem" TEXT,
                "rawResponse" TEXT);
            CREATE TABLE IF NOT EXISTS "MS_TableConfig" (
                "tableName" TEXT NOT NULL COLLATE NOCASE,
                "key" TEXT NOT NULL,
                "keyType" INTEGER NOT NULL DEFAULT 0,
                "value" TEXT,
                PRIMARY KEY ("tableName", "key", "keyType"));
            """)
        for table in tables {
            let existing = try Set(Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table.name])
                .map { ($0["name"] as String).lowercased() })
            if existing.isEmpty {
                let columns = table.allColumns.map { column in
                    "\(quote(column.name)) \(sqlType(column.type))" + (column.name == "id" ? " PRIMARY KEY NOT NULL COLLATE NOCASE" : "")
                }
                try db.execute(sql: "CREATE TABLE \(quote(table.name)) (\(columns.joined(separator: ", ")))")
            } else {
                for column in table.allColumns where !existing.contains(column.name.lowercased()) {
                    try db.execute(sql: "ALTER TABLE \(quote(table.name)) ADD COLUMN \(quote(column.name)) \(sqlType(column.type))")
                }
            }
            for columns in table.indexes where !columns.isEmpty {
                let name = quote(([table.name] + columns).joined(separator: "_"))
                try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(name) ON \(quote(table.name)) (\(columns.map(quote).joined(separator: ", ")))")
            }
            if try TextSearchIndex.migrate(db, table: table) { searchIndexed.insert(table.name.lowercased()) }
        }
        return searchIndexed
    }

    static func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    static func sqlType(_ type: SyncColumnType) -> String {
        switch type {
        case .text: return "TEXT"
        case .number: return "REAL"
        case .boolean: return "BOOLEAN"
        }
    }
}
