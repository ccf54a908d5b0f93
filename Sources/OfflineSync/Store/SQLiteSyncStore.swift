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
    let searchIndexes: SearchIndexState
    /// Writes running (or waiting for the writer), and writes finished: `settledWrites`.
    private let writes = Mutex<(running: Int, finished: UInt64)>((0, 0))

    /// Opens or creates the store at `path` with the given tables.
    public init(path: String, tables: [SyncTableDefinition]) throws {
        for table in tables {
            guard MemberName.isValid(table.name), !table.name.hasPrefix("MS_") else {
                throw SyncError(.invalidParameter, "Invalid table name '\(table.name)'")
            }
            for column in table.columns.keys + table.indexes.flatMap({ $0 }) where !MemberName.isValid(column) {
                throw SyncError(.invalidParameter, "Invalid column name '\(column)' in table '\(table.name)'")
            }
            for column in table.searchable + table.wordSearchable where table.column(named: column)?.type != .text {
                throw SyncError(.invalidParameter, "The searchable column '\(column)' of table '\(table.name)' must be a declared text column")
            }
        }
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var config = Configuration()
        config.busyMode = .timeout(Self.busyTimeout)
        // WAL with synchronous=NORMAL: a commit survives a process crash (kill -9); only an OS
        // crash or power loss can drop the last commits. Saves an fsync per pushed operation.
        // Recursive triggers: should a write ever replace an item row (INSERT OR REPLACE; upserts
        // update in place), the delete trigger still fires and keeps text-search indexes exact.
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA recursive_triggers = ON")
            try HumanOrder.register(on: db)
            try UnicodeCase.register(on: db)
        }
        pool = try Self.openPool(path: path, configuration: config)
        definitions = Dictionary(tables.map { ($0.name.lowercased(), $0) }, uniquingKeysWith: { $1 })
        try Self.migrateSystemTables(pool)
        let (indexed, migrated) = try pool.write { db -> (Set<String>, Bool) in
            let fingerprint = StoreSchemaRecord.fingerprint(tables)
            let recorded = try StoreSchemaRecord.unchanged(db, fingerprint: fingerprint)
            let indexed = try recorded ?? StoreMigrator.migrate(db, tables: tables)
            if recorded == nil { try StoreSchemaRecord.record(db, fingerprint: fingerprint, searchIndexed: indexed) }
            try Self.refreshStatistics(db, tables: tables)
            return (indexed, recorded == nil)
        }
        searchIndexes = SearchIndexState(indexed)
        migratedAtOpen = migrated
    }

    /// How long a statement waits for another connection's lock, in seconds.
    static let busyTimeout: TimeInterval = 10

    /// Opens the pool. Processes opening one store at once (two first launches, or the app and a
    /// headless command) race to switch it to WAL, and SQLite answers the loser "database is
    /// locked" at once, since its busy timeout does not cover a journal mode's change: the loser
    /// tries again, for as long as the busy timeout would have waited.
    private static func openPool(path: String, configuration: Configuration) throws -> DatabasePool {
        let deadline = ContinuousClock.now + .seconds(busyTimeout)
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && ContinuousClock.now < deadline {
                usleep(20_000)
            }
        }
    }

    /// Runs the system tables' migrations that are missing. Another process opening the same store
    /// at the same moment (the app and a headless command, after an upgrade) may apply one this
    /// process had read as missing, and GRDB's migrator then fails on what is already there:
    /// reading the applied migrations again settles it.
    private static func migrateSystemTables(_ pool: DatabasePool) throws {
        let migrator = SystemTables.migrator
        for attempt in 1... {
            do {
                return try migrator.migrate(pool)
            } catch {
                if (try? pool.read({ try migrator.hasCompletedMigrations($0) })) == true { return }
                if attempt == 3 { throw error }
            }
        }
    }

    /// Whether opening it ran `StoreMigrator` (false when `StoreSchemaRecord` said nothing changed).
    let migratedAtOpen: Bool

    /// Rows a table may gain or lose, as a factor of what its statistics say, before they are read again.
    static let statisticsDrift = 2

    /// Reads the row statistics of each table whose statistics are missing or far off its size
    /// (every index walked once: sampled ones said `complete = 0` was narrow). Without them SQLite
    /// takes `complete = 0` for a narrow equality and walks that index row by row even where another
    /// index (a parent's, a reminder's) answers at once.
    private static func refreshStatistics(_ db: Database, tables: [SyncTableDefinition]) throws {
        let hasStatistics = try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE name = 'sqlite_stat1'") ?? false
        for table in tables {
            let quoted = "\"" + table.name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            // The largest rowid: the row count's order of magnitude without walking the table.
            let rows = try Int.fetchOne(db, sql: "SELECT max(rowid) FROM \(quoted)") ?? 0
            let known = hasStatistics
                ? try String.fetchOne(db, sql: "SELECT stat FROM sqlite_stat1 WHERE tbl = ? LIMIT 1", arguments: [table.name])
                    .flatMap { $0.split(separator: " ").first.flatMap { Int($0) } } : nil
            // An index made since (a new index of the table's) has none of its own; a partial
            // index with no rows in it never has any.
            let unmeasured = hasStatistics ? try Int.fetchOne(db, sql: """
                SELECT count(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1 AND sql NOT LIKE '% WHERE %'
                AND name NOT IN (SELECT idx FROM sqlite_stat1 WHERE tbl = ?1 AND idx IS NOT NULL)
                """, arguments: [table.name]) ?? 0 : 0
            let stale: Bool
            if unmeasured > 0 {
                stale = rows >= 100
            } else if let known {
                let grown = rows > known * statisticsDrift + 100
                let shrunk = rows * statisticsDrift + 100 < known
                stale = grown || shrunk
            } else {
                stale = rows >= 100
            }
            if stale { try db.execute(sql: "ANALYZE \(quoted)") }
        }
    }

    public func definition(of table: String) -> SyncTableDefinition? { definitions[table.lowercased()] }

    /// The names of every declared table, sorted.
    public var tableNames: [String] { definitions.values.map(\.name).sorted() }

    func read<T>(_ body: (any SyncStoreSession) throws -> T) throws -> T {
        if let snapshot = Snapshot.current { return try body(SQLiteStoreSession(db: snapshot.db, definitions: definitions, searchIndexes: searchIndexes)) }
        return try readTransaction { db in try body(SQLiteStoreSession(db: db, definitions: definitions, searchIndexes: searchIndexes)) }
    }

    /// One read transaction of the pool, interrupted once its live query's read is cancelled.
    private func readTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.read { db in
            guard let cancellation = ReadCancellation.current else { return try body(db) }
            return try Self.interruptible(db, by: cancellation) { try body(db) }
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

    func readConsistently<T>(_ body: () throws -> T) throws -> T {
        if Snapshot.current != nil { return try body() }
        return try readTransaction { db in try Snapshot.$current.withValue(Snapshot(db: db)) { try body() } }
    }

    func write<T>(_ body: (any SyncStoreSession) throws -> T) throws -> T {
        writes.withLock { $0.running += 1 }
        // Finished only after the commit: a reader woken by the commit sees a write still running, or a new count.
        defer { writes.withLock { ($0.running, $0.finished) = ($0.running - 1, $0.finished &+ 1) } }
        return try pool.write { db in try body(SQLiteStoreSession(db: db, definitions: definitions, searchIndexes: searchIndexes)) }
    }

    var settledWrites: UInt64? { writes.withLock { $0.running == 0 ? $0.finished : nil } }

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

/// The read transaction that `readConsistently` holds on this thread: the reads inside it use it.
private final class Snapshot: @unchecked Sendable {
    // Only the thread that bound it reads through it, inside the `pool.read` that opened it.
    let db: Database

    init(db: Database) { self.db = db }

    @TaskLocal static var current: Snapshot?
}
