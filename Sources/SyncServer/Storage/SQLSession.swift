import FilterSQL
import TableProtocol

/// One connection's worth of synchronous SQL access, valid only inside a `SQLDatabase` call.
///
/// Synchronous on purpose: SQLite (GRDB) hands out connections only inside synchronous
/// closures, so PostgreSQL adapts to this shape rather than the other way round.
public protocol SQLSession {
    /// Runs a statement and returns its rows. Placeholders are written in the dialect's style.
    func query(_ sql: String, _ binds: [SQLValue]) throws -> SQLRows
    /// Runs a statement that returns no rows.
    func execute(_ sql: String, _ binds: [SQLValue]) throws
    /// Runs a query and writes its first `limit` rows as a JSON array of objects (keys are the
    /// column names, values typed by `schema`); also says how many rows it read, at most
    /// `limit + 1`, so the caller learns whether more remain.
    func queryJSONArray(_ sql: String, _ binds: [SQLValue], schema: TableSchema, limit: Int) throws -> (json: [UInt8], rows: Int)
    /// Tells change-feed subscribers about a write of this transaction once, and only if, it commits.
    func announce(_ notice: ChangeNotice) throws
    /// Tells the other server processes on this database that a namespace's table was made or
    /// grew in this transaction (`key`: `SchemaRegistry.Key.announced`), so they drop their cached
    /// schema of it when it commits.
    func announceSchemaChange(of key: String) throws
}

extension SQLSession {
    /// One process owns a SQLite file: nobody else caches its schema.
    public func announceSchemaChange(of key: String) throws {}

    /// Through `query` and `StoredItem`; a store may write the bytes more directly.
    public func queryJSONArray(_ sql: String, _ binds: [SQLValue], schema: TableSchema, limit: Int) throws -> (json: [UInt8], rows: Int) {
        let result = try query(sql, binds)
        let types = StoredItem.types(of: result.columns, in: schema)
        let items = result.rows.prefix(limit).map { JSONValue.object(StoredItem(row: $0, columns: result.columns, types: types).properties) }
        return (JSONWriter.bytes(.array(items)), result.rows.count)
    }
}

/// A database the table service runs its statements on.
public protocol SQLDatabase: Sendable {
    /// How SQL is spelled for this engine.
    var dialect: any SQLDialect { get }
    /// Runs `body` on a read-only snapshot.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T
    /// Runs `body`, which reads with a single statement, outside any transaction (a statement
    /// is consistent on its own; this saves the BEGIN/COMMIT of a snapshot).
    func readStatement<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T
    /// `queryJSONArray` as one statement outside any transaction: the pull page, every request
    /// of a polling device. A store may answer it without `readStatement`'s synchronous session.
    func readJSONArray(_ sql: String, _ binds: [SQLValue], schema: TableSchema, limit: Int) async throws -> (json: [UInt8], rows: Int)
    /// Runs `body` in one write transaction: committed if it returns, rolled back if it throws.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T
    /// Runs schema changes serialised across every process sharing the database.
    func migrate<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T
    /// Releases connections.
    func close() async
    /// How the connections are used now (for `GET /metrics`).
    func connectionUse() async -> ConnectionUse
    /// Tells the other server processes on this database that `account`'s membership of `space`
    /// changed (committed), so they end its open feeds at once.
    func announceMembershipChange(space: String, account: String)
    /// Runs `read` (a pull page or an item read of `owner`'s `table`) on the database it may use:
    /// a read replica that holds every write of that table up to `after` (ms since 1970, the
    /// client's `X-Read-After`) and every one announced to this process, else this database.
    func routedRead<T: Sendable>(table: String, owner: String, after: Int64?, _ read: (any SQLDatabase) async throws -> T) async throws -> T
    /// Told after `rows` rows of `physicalTable` were written and committed, so a store whose
    /// planner needs fresh statistics can keep them up (`PostgresTableStatistics`).
    func didWrite(rows: Int, to physicalTable: String)
}

extension SQLDatabase {
    /// SQLite's planner uses the index without statistics.
    public func didWrite(rows: Int, to physicalTable: String) {}

    /// Without replicas every read runs here.
    public func routedRead<T: Sendable>(table: String, owner: String, after: Int64?, _ read: (any SQLDatabase) async throws -> T) async throws -> T {
        try await read(self)
    }

    /// One process owns a SQLite file: its own hub is every subscriber.
    public func announceMembershipChange(space: String, account: String) {}

    /// Through a synchronous session, as every other read.
    public func readJSONArray(_ sql: String, _ binds: [SQLValue], schema: TableSchema, limit: Int) async throws -> (json: [UInt8], rows: Int) {
        try await readStatement { try $0.queryJSONArray(sql, binds, schema: schema, limit: limit) }
    }
}
