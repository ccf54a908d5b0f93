import Foundation
import GRDB
import GRDBSQLite
import Synchronization
import TableProtocol

/// The shipped local store: one SQLite file (WAL) holding the app's tables and the
/// `MS_` system tables. Tables are created from their definitions; new columns are added on open.
public final class SQLiteSyncStore: SyncDataSource {
    private let pool: DatabasePool
    private let definitions: [String: SyncTableDefinition]
    private let searchIndexes: SearchIndexState

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
        // Recursive triggers: should a write ever replace an item row (INSERT OR REPLACE; upserts
        // update in place), the delete trigger still fires and keeps text-search indexes exact.
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA recursive_triggers = ON")
            try HumanOrder.register(on: db)
            try UnicodeCase.register(on: db)
        }
        pool = try DatabasePool(path: path, configuration: config)
        definitions = Dictionary(tables.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { $1 })
        try SystemTables.migrator.migrate(pool)
        searchIndexes = SearchIndexState(try pool.write { db in try StoreMigrator.migrate(db, tables: tables) })
    }

    public func definition(of table: String) -> SyncTableDefinition? { definitions[table.lowercased()] }

    /// The names of every declared table, sorted.
    public var tableNames: [String] { definitions.values.map(\.name).sorted() }

    func read<T>(_ body: (any SyncStoreSession) throws -> T) throws -> T {
        try pool.read { db in
            let session = SQLiteStoreSession(db: db, definitions: definitions, searchIndexes: searchIndexes)
            guard let cancellation = ReadCancellation.current else { return try body(session) }
            return try Self.interruptible(db, by: cancellation) { try body(session) }
        }
    }

    /// Runs `body` on `db` with SQLite asking, every thousand steps of its virtual machine, whether
    /// the read was cancelled; once it is, the statement stops with SQLITE_INTERRUPT.
    private static func interruptible<T>(_ db: Database, by cancellation: ReadCancellation, _ body: () throws -> T) throws -> T {
        let context = Unmanaged.passUnretained(cancellation).toOpaque()
        sqlite3_progress_handler(db.sqliteConnection, 1_000, { context in
            Unmanaged<ReadCancellation>.fromOpaque(context!).takeUnretainedValue().isCancelled ? 1 : 0
        }, context)
        defer { sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil) }
        return try withExtendedLifetime(cancellation) { try body() }
    }

    func write<T>(_ body: (any SyncStoreSession) throws -> T) throws -> T {
        try pool.write { db in try body(SQLiteStoreSession(db: db, definitions: definitions, searchIndexes: searchIndexes)) }
    }

    /// GRDB's region observation: told after each commit that touched the tables' rows.
    public func commits(changing tables: [String]) -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let observation = DatabaseRegionObservation(tracking: tables.map { Table($0) })
        let cancellable = observation.start(in: pool, onError: { _ in continuation.finish() }, onChange: { _ in continuation.yield() })
        continuation.onTermination = { _ in cancellable.cancel() }
        return stream
    }
}

/// The tables whose text-search index is current, so queries may use it: all that have one,
/// except during a bulk load (`SyncStoreSession.beginBulkLoad`), when queries scan instead.
final class SearchIndexState: Sendable {
    private let current: Mutex<Set<String>>

    init(_ tables: Set<String>) { current = Mutex(tables) }

    /// Whether `table`'s index is current (names compare case-insensitively).
    func isCurrent(_ table: String) -> Bool { current.withLock { $0.contains(table.lowercased()) } }

    func set(_ table: String, current isCurrent: Bool) {
        current.withLock { if isCurrent { $0.insert(table.lowercased()) } else { $0.remove(table.lowercased()) } }
    }
}
