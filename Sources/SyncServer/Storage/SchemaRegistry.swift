import FilterSQL
import Foundation
import Synchronization
import TableProtocol

/// Knows every table's columns, creates tables and columns on first write (dynamic schema), and
/// caches them; several server processes drop each other's changes from the cache as they commit
/// (`announceSchemaChange`, `forget`), with a short TTL behind that.
final class SchemaRegistry: Sendable {
    private let database: any SQLDatabase
    private let cache = Mutex(Cache())
    private let ttl: TimeInterval
    private let fixed: Bool
    private let limits: SchemaLimits

    private struct CachedSchema {
        var schema: TableSchema?
        var loadedAt: Date
    }

    private struct Cache {
        var tables: [String: CachedSchema] = [:]
        /// Counts `forget` calls: a schema read that straddled one may be stale and is not kept.
        var generation = 0
        /// Tables this process is creating or widening right now. Their commit announces the
        /// change before `write` can record the new schema, so until it has, reads of them go to
        /// the database and keep nothing.
        var growing: [String: Int] = [:]
    }

    init(database: any SQLDatabase, fixedSchema: Bool, limits: SchemaLimits, cacheTTL: TimeInterval) {
        self.database = database
        self.fixed = fixedSchema
        self.limits = limits
        self.ttl = cacheTTL
    }

    var isFixed: Bool { fixed }

    /// Creates the server's own bookkeeping tables and gives tables made before accounts
    /// existed their owner column (their rows become the anonymous owner's).
    func bootstrap() async throws {
        let dialect = database.dialect
        _ = try await database.migrate { session in
            try session.execute(
                #"CREATE TABLE IF NOT EXISTS "__sync_clock" ("tbl" TEXT PRIMARY KEY NOT NULL, "last" BIGINT NOT NULL)"#, [])
            for row in try session.query(dialect.listTablesSQL, []).rows {
                guard let table = row[0].text else { continue }
                let names = try session.query(dialect.listColumnsSQL, [.text(table)]).rows.compactMap { $0[0].text }
                if !names.contains(TableSchema.ownerColumnName), let schema = try Self.load(table, dialect: dialect, session: session) {
                    try Self.addOwner(to: table, schema: schema, dialect: dialect, session: session)
                }
            }
        }
    }

    /// The table's schema, or nil when it does not exist. `fresh` bypasses the cache.
    func schema(of table: String, fresh: Bool = false) async throws -> TableSchema? {
        let (hit, generation, growing) = cache.withLock { ($0.tables[table], $0.generation, $0.growing[table] != nil) }
        if !fresh, !growing, let hit, Date().timeIntervalSince(hit.loadedAt) < ttl { return hit.schema }
        let dialect = database.dialect
        let schema = try await database.read { try Self.load(table, dialect: dialect, session: $0) }
        remember(schema, for: table, readAt: generation)
        return schema
    }

    /// The table's schema when it has a column for every name in `needed`, else nil; throws
    /// as `write` does for a type mismatch or, when fixed, an unknown column.
    func covering(_ table: String, _ needed: [(name: String, type: ColumnType?)]) async throws -> TableSchema? {
        guard let current = try await schema(of: table), try Self.covers(current, needed, fixed: fixed) else { return nil }
        return current
    }

    /// Runs `start`, then `body`, in one write transaction, with the table's schema holding a
    /// column for every name in `needed`. Missing tables and columns are made in that same
    /// transaction, so a request that fails (a bad type, a limit, a conflict) leaves no schema
    /// change behind: DDL is transactional on both SQLite and PostgreSQL.
    ///
    /// `start` runs once the table has its columns: the table service takes the table's clock row
    /// there. Every writer takes the table before the clock row (see `SQLDialect.openForWriteSQL`),
    /// so here ALTER TABLE's exclusive lock comes first too. Taking the clock row first deadlocked
    /// on PostgreSQL with a writer that held the table and waited for the row.
    /// Throws a `TableError` for a type mismatch, a limit, or in fixed-schema mode anything unknown.
    func write<Start: Sendable, T: Sendable>(
        _ table: String, columns needed: [(name: String, type: ColumnType?)],
        start: @escaping @Sendable (any SQLSession) throws -> Start,
        _ body: @escaping @Sendable (TableSchema, Start, any SQLSession) throws -> T
    ) async throws -> T {
        if let current = try await covering(table, needed) {
            return try await database.write { try body(current, try start($0), $0) }
        }
        if fixed {
            guard let current = try await schema(of: table, fresh: true) else { throw TableError.tableNotFound }
            _ = try Self.covers(current, needed, fixed: true)
            return try await database.write { try body(current, try start($0), $0) }
        }
        let dialect = database.dialect
        let limits = self.limits
        startGrowing(table)
        let schema: TableSchema, value: T
        do {
            (schema, value) = try await database.migrate { session in
                let (schema, grew) = try Self.grow(table, to: needed, limits: limits, dialect: dialect, session: session)
                if grew { try session.announceSchemaChange(of: table) }
                return (schema, try body(schema, try start(session), session))
            }
        } catch {
            stopGrowing(table, grown: nil)
            throw error
        }
        stopGrowing(table, grown: schema)
        return value
    }

    /// Checks every limit and type first, then creates the table and adds the missing columns;
    /// answers the schema and whether it changed.
    private static func grow(
        _ table: String, to needed: [(name: String, type: ColumnType?)], limits: SchemaLimits, dialect: any SQLDialect, session: any SQLSession
    ) throws -> (TableSchema, grew: Bool) {
        let existing = try load(table, dialect: dialect, session: session)
        var result = existing ?? TableSchema(columns: TableSchema.systemColumns)
        _ = try covers(result, needed, fixed: false)
        var added = Set<String>()
        let missing = needed.compactMap { name, type -> TableSchema.Column? in
            guard let type, result.column(named: name) == nil, added.insert(name).inserted else { return nil }
            return .init(name: name, type: type)
        }
        if existing == nil {
            let tables = Int(try session.query("SELECT count(*) FROM (\(dialect.listTablesSQL)) AS existing", []).rows.first?.first?.int64 ?? 0)
            guard tables < limits.maxTables else {
                throw TableError.badRequest("Cannot create the table '\(table)': the server allows at most \(limits.maxTables) tables")
            }
        }
        let columns = result.columns.count + missing.count
        guard columns <= limits.maxColumnsPerTable else {
            throw TableError.badRequest(
                "The table '\(table)' may have at most \(limits.maxColumnsPerTable) columns (its \(TableSchema.systemColumns.count) system columns included); this request needs \(columns)")
        }
        if existing == nil { try create(table, schema: result, dialect: dialect, session: session) }
        for column in missing {
            try session.execute(
                "ALTER TABLE \(dialect.quote(table)) ADD COLUMN \(dialect.quote(column.name)) \(dialect.columnDefinition(column.type))", [])
            result.append(column)
        }
        return (result, existing == nil || !missing.isEmpty)
    }

    /// Drops a table's cached schema (nil: every table's), so the next use reads it again.
    func forget(_ table: String?) {
        cache.withLock { cache in
            if let table { cache.tables[table] = nil } else { cache.tables.removeAll() }
            cache.generation += 1
        }
    }

    /// Marks a table as changing: its write's commit publishes the change (a client that hears of
    /// it may query at once) before `write` gets to `stopGrowing`, and a cached "no table" read
    /// then made the new rows invisible (`todo watch` missed a first change now and then).
    private func startGrowing(_ table: String) {
        cache.withLock { cache in
            cache.growing[table, default: 0] += 1
            cache.generation += 1
        }
    }

    /// Ends `startGrowing`: keeps the schema the write made, or (nil: it failed, perhaps after
    /// committing) drops the table's entry so the next use reads it again. Moves the generation
    /// on, so a read that began before (it may have seen no table at all) is not kept either.
    private func stopGrowing(_ table: String, grown schema: TableSchema?) {
        cache.withLock { cache in
            cache.generation += 1
            cache.tables[table] = schema.map { CachedSchema(schema: $0, loadedAt: Date()) }
            let left = (cache.growing[table] ?? 1) - 1
            cache.growing[table] = left > 0 ? left : nil
        }
    }

    /// Keeps a schema read when the cache was at `generation`, unless something changed since.
    private func remember(_ schema: TableSchema?, for table: String, readAt generation: Int) {
        cache.withLock { cache in
            guard cache.generation == generation, cache.growing[table] == nil else { return }
            cache.tables[table] = CachedSchema(schema: schema, loadedAt: Date())
        }
    }

    /// True when every needed column exists; throws on a type mismatch (or, when `fixed`, an unknown column).
    private static func covers(_ schema: TableSchema, _ needed: [(name: String, type: ColumnType?)], fixed: Bool) throws -> Bool {
        var complete = true
        for (name, type) in needed {
            guard let column = schema.column(named: name) else {
                if fixed { throw TableError.badRequest("The property '\(name)' is not a column of this table") }
                if type != nil { complete = false }
                continue
            }
            if let type, type != column.type {
                throw TableError.badRequest("The property '\(name)' must be a \(column.type.noun), not a \(type.noun)")
            }
        }
        return complete
    }

    /// A table with the owner column first, `schema`'s columns (system ones NOT NULL), the
    /// primary key (owner, id) and the incremental-pull index.
    private static func create(_ table: String, schema: TableSchema, dialect: any SQLDialect, session: any SQLSession) throws {
        let columns = schema.columns.map { column -> String in
            dialect.quote(column.name) + " " + dialect.columnDefinition(column.type) + (SystemProperty.isSystem(column.name) ? " NOT NULL" : "")
        }
        let definitions = ["\(TableSchema.ownerColumn) TEXT NOT NULL DEFAULT ''"] + columns + ["PRIMARY KEY (\(TableSchema.ownerColumn), \"id\")"]
        try session.execute("CREATE TABLE \(dialect.quote(table)) (\(definitions.joined(separator: ", ")))", [])
        try session.execute(
            "CREATE INDEX \(dialect.quote(table + "_updatedAt_id")) ON \(dialect.quote(table)) (\(TableSchema.ownerColumn), \"updatedAt\", \"id\")", [])
    }

    /// Rebuilds a table made before accounts with the owner column (a primary key cannot be
    /// changed in place on SQLite): its rows keep every value and belong to the anonymous owner.
    private static func addOwner(to table: String, schema: TableSchema, dialect: any SQLDialect, session: any SQLSession) throws {
        let legacy = dialect.quote(table + "__before_owner")
        let names = schema.columns.map { dialect.quote($0.name) }.joined(separator: ", ")
        try session.execute("ALTER TABLE \(dialect.quote(table)) RENAME TO \(legacy)", [])
        // The old index moves with the renamed table; drop it first so the new one can take its name.
        try session.execute("DROP INDEX IF EXISTS \(dialect.quote(table + "_updatedAt_id"))", [])
        try create(table, schema: schema, dialect: dialect, session: session)
        try session.execute("INSERT INTO \(dialect.quote(table)) (\(names)) SELECT \(names) FROM \(legacy)", [])
        try session.execute("DROP TABLE \(legacy)", [])
    }

    private static func load(_ table: String, dialect: any SQLDialect, session: any SQLSession) throws -> TableSchema? {
        let rows = try session.query(dialect.listColumnsSQL, [.text(table)]).rows
        guard !rows.isEmpty else { return nil }
        return TableSchema(columns: rows.compactMap { row in
            guard let name = row[0].text, name != TableSchema.ownerColumnName,
                  let declared = row[1].text, let type = dialect.columnType(declared: declared) else { return nil }
            return TableSchema.Column(name: name, type: type)
        })
    }
}
