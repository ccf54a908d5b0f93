import FilterSQL
import Foundation
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// The shared store: a PostgreSQL database that several stateless server processes may use.
///
/// Each pooled connection has its own serial dispatch queue; a transaction body runs there and
/// waits for each query, so the storage code stays synchronous like SQLite's.
public final class PostgresDatabase: SQLDatabase, OneStatementWrites {
    public let dialect: any SQLDialect = PostgresDialect()
    private let pool: PostgresConnectionPool
    /// The statements prepared on each connection: the single-item writes.
    private let statementNames = PostgresStatementNames(capacity: 256)
    /// The pull pages prepared on each connection: a capacity of their own, so clients' many
    /// filter shapes cannot leave the writes unprepared.
    private let pageStatementNames = PostgresStatementNames(capacity: 256)
    let logger: Logger
    let configuration: PostgresConnection.Configuration
    /// Sends the change notices of this process's commits.
    let notifier: PostgresNotifier

    /// The NOTIFY channel of committed table writes (`ServerConfiguration.changeChannel`).
    let changeChannel: String

    /// The hot standbys pulls and item reads may run on (`--read-database`); nil without any.
    let replicas: PostgresReadReplicas?
    /// Analyzes row tables as they grow.
    let statistics: PostgresTableStatistics
    /// Checks the standbys' health until `close`.
    private let monitoring = Mutex<Task<Void, Never>?>(nil)

    private init(configuration: PostgresConnection.Configuration, poolSize: Int, replicas: PostgresReadReplicas?, changeChannel: String, logger: Logger) {
        self.logger = logger
        self.configuration = configuration
        self.changeChannel = changeChannel
        self.pool = PostgresConnectionPool(configuration: configuration, size: poolSize, logger: logger)
        self.notifier = PostgresNotifier(configuration: configuration, channel: changeChannel, logger: logger)
        self.replicas = replicas
        self.statistics = PostgresTableStatistics(logger: logger)
    }

    public func didWrite(rows: Int, to physicalTable: String) {
        statistics.wrote(rows, to: physicalTable, on: self)
    }

    /// Connects once (so a bad URL or password fails now, with the server's message). Each of
    /// `readDatabases` is a hot standby of this database that reads may use while it is at most
    /// `maxReadLag` seconds behind; one that is down now is only logged and checked again.
    /// Committed writes are announced on `changeChannel`, which every process on the database shares.
    public convenience init(url: String, poolSize: Int = 8, readDatabases: [String] = [], maxReadLag: Double = 10,
                            changeChannel: String = ServerConfiguration.defaultChangeChannel, logger: Logger) async throws {
        let standbys = try readDatabases.map { url in
            let database = PostgresDatabase(configuration: try PostgresURL.configuration(from: url), poolSize: poolSize, replicas: nil, changeChannel: changeChannel, logger: logger)
            return PostgresStandby(database: database, name: SyncServerApplication.redacted(url))
        }
        self.init(configuration: try PostgresURL.configuration(from: url), poolSize: poolSize,
                  replicas: standbys.isEmpty ? nil : PostgresReadReplicas(standbys: standbys, maxLag: maxReadLag, logger: logger),
                  changeChannel: changeChannel, logger: logger)
        let first = try await pool.acquire()
        pool.release(first)
        if let replicas { monitoring.withLock { $0 = Task { await replicas.monitor(primary: self) } } }
    }

    /// On a standby that holds every write the read needs, when there is one (`PostgresReadReplicas`).
    public func routedRead<T: Sendable>(table: String, owner: String, after: Int64?,
                                        _ read: (any SQLDatabase) async throws -> T) async throws -> T {
        guard let replicas else { return try await read(self) }
        return try await replicas.route(table: table, owner: owner, after: after, primary: self, read)
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await run(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    public func readStatement<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await run(begin: nil, body)
    }

    /// The pull page without a dispatch queue or a blocking wait: a prepared statement runs on
    /// the connection's event loop and its rows go straight into JSON (`PostgresPreparedPages`).
    public func readJSONArray(_ sql: String, _ binds: [SQLValue], schema: TableSchema, limit: Int) async throws -> (json: [UInt8], rows: Int) {
        let slot = try await pool.acquire()
        defer { pool.release(slot) }
        return try await slot.pages.readJSONArray(sql, binds, limit: limit, on: slot.connection, names: pageStatementNames, logger: logger)
    }

    /// Without a dispatch queue or a blocking wait, as the pull page.
    func writeInOneStatement(_ write: TableWrite, rows: RowAccess) async throws -> StoredItem? {
        let statement = PostgresOneStatementWrite(write, rows: rows, nowMs: TableClock.nowMs)
        let slot = try await pool.acquire()
        defer { pool.release(slot) }
        let result = try await preparedRows(statement.sql, statement.binds, on: slot.connection)
        // Committed (autocommit): now it may be announced.
        guard let item = PostgresOneStatementWrite.item(from: try PostgresSession.rows(of: result), schema: rows.schema) else { return nil }
        notifier.post([ChangeNotice(table: rows.table, owner: rows.owner, item: item).payload])
        didWrite(rows: 1, to: rows.schema.physicalTable)
        return item
    }

    /// Runs one statement outside any transaction on the connection's event loop: as a named
    /// statement while `statementNames` has room, else unnamed.
    private func preparedRows(_ sql: String, _ binds: [SQLValue], on connection: PostgresConnection) async throws -> [PostgresRow] {
        let types = binds.map(PostgresSession.dataType)
        let key = types.map { "\($0.rawValue)," }.joined() + sql
        guard let name = statementNames.name(for: key) else {
            return try await connection.query(PostgresSession.query(sql, binds), logger: logger).get().rows
        }
        let text = PostgresNamedStatement.Text(name: name, sql: sql, types: types)
        do {
            return try await PostgresNamedStatement.rows(text, PostgresSession.query(sql, binds).binds, on: connection, logger: logger)
        } catch {
            // Prepare it anew next time rather than keep the failure.
            if PostgresFailure.isStatementFailure(error) { statementNames.retire(key) }
            throw error
        }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        try await run(begin: "BEGIN", body)
    }

    public func migrate<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        // One schema change at a time across every process sharing this database.
        try await run(begin: "BEGIN") { session in
            try session.execute("SELECT pg_advisory_xact_lock(7340913)", [])
            return try body(session)
        }
    }

    public func close() async {
        monitoring.withLock { $0?.cancel() }
        for standby in replicas?.standbys ?? [] { await standby.database.close() }
        await notifier.close()
        await pool.close()
    }

    public func connectionUse() async -> ConnectionUse {
        var use = pool.use
        if let replicas {
            use.replicas = ReplicaUse(serving: replicas.standbys.filter { $0.currentHealth.serves }.count,
                                      standbyReads: replicas.standbyReads.load(ordering: .relaxed),
                                      primaryFallbacks: replicas.primaryFallbacks.load(ordering: .relaxed))
        }
        return use
    }

    /// Runs `body` on a pooled connection, inside a transaction opened by `begin` (or none).
    private func run<T: Sendable>(begin: String?, _ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
        let slot = try await pool.acquire()
        let logger = self.logger
        do {
            let result: T = try await withCheckedThrowingContinuation { continuation in
                slot.queue.async {
                    let session = PostgresSession(connection: slot.connection, logger: logger, notifier: self.notifier)
                    do {
                        if let begin { try session.execute(begin, []) }
                        let value = try body(session)
                        try session.finish(with: begin != nil ? "COMMIT" : nil)
                        continuation.resume(returning: value)
                    } catch {
                        if begin != nil { try? session.execute("ROLLBACK", []) }
                        continuation.resume(throwing: error)
                    }
                }
            }
            pool.release(slot)
            return result
        } catch {
            pool.release(slot)
            throw error
        }
    }
}

extension PostgresDatabase {
    /// On the change channel, after the membership change committed: every process's LISTEN relay
    /// ends the account's open feeds (`ChangeHub.endFeeds`).
    public func announceMembershipChange(space: String, account: String) {
        notifier.post([ChangeNotice.membershipPayload(space: space, account: account)])
    }
}
