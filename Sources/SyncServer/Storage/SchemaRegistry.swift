import FilterSQL
import Foundation
import Synchronization
import TableProtocol

/// Knows each namespace's tables and properties (`NamespaceCatalog`), creates them on first
/// write (dynamic schema), and caches them; several server processes drop each other's changes
/// from the cache as they commit (`announceSchemaChange`, `forget`), with a short TTL behind that.
///
/// With `--fixed-schema` nothing is created: a namespace sees its catalogued tables, or else the
/// operator's physical table of that name, with its columns as they are.
final class SchemaRegistry: Sendable {
    private let database: any SQLDatabase
    private let cache = Mutex(Cache())
    private let ttl: TimeInterval
    private let fixed: Bool
    let limits: SchemaLimits

    /// One namespace's table: what the cache keeps a schema under.
    struct Key: Hashable, Sendable {
        let namespace: String
        let table: String

        /// The text other processes are told when this schema changes: neither part holds a ':'
        /// (namespaces are account ids, tables are `[a-z0-9_]` names).
        var announced: String { namespace + ":" + table }

        init(namespace: String, table: String) {
            self.namespace = namespace
            self.table = table
        }

        init?(announced: String) {
            guard let colon = announced.lastIndex(of: ":") else { return nil }
            self.init(namespace: String(announced[..<colon]), table: String(announced[announced.index(after: colon)...]))
        }
    }

    private struct CachedSchema {
        var schema: TableSchema?
        var loadedAt: Date
    }

    private struct Cache {
        var tables: [Key: CachedSchema] = [:]
        /// Counts `forget` calls: a schema read that straddled one may be stale and is not kept.
        var generation = 0
        /// Tables this process is creating or widening right now. Their commit announces the
        /// change before `write` can record the new schema, so until it has, reads of them go to
        /// the database and keep nothing.
        var growing: [Key: Int] = [:]
    }

    /// Schemas kept at most; a server with more active namespaces reads the rest again.
    private static let cacheLimit = 100_000

    init(database: any SQLDatabase, fixedSchema: Bool, limits: SchemaLimits, cacheTTL: TimeInterval) {
        self.database = database
        self.fixed = fixedSchema
        self.limits = limits
        self.ttl = cacheTTL
    }

    var isFixed: Bool { fixed }

    /// The namespace's schema of the table, or nil when it has no such table. `fresh` bypasses the cache.
    func schema(of table: String, in namespace: String, fresh: Bool = false) async throws -> TableSchema? {
        let key = Key(namespace: namespace, table: table)
        let (hit, generation, growing) = cache.withLock { ($0.tables[key], $0.generation, $0.growing[key] != nil) }
        if !fresh, !growing, let hit, Date().timeIntervalSince(hit.loadedAt) < ttl { return hit.schema }
        let dialect = database.dialect
        let fixed = self.fixed
        let schema = try await database.read { session in
            try NamespaceCatalog.load(namespace, table, dialect: dialect, session: session)
                ?? (fixed ? Self.loadPhysical(table, dialect: dialect, session: session) : nil)
        }
        remember(schema, for: key, readAt: generation)
        return schema
    }

    /// The table's schema when it has a column for every name in `needed`, else nil; throws
    /// as `write` does for a type mismatch or, when fixed, an unknown column.
    func covering(_ table: String, in namespace: String, _ needed: [(name: String, type: ColumnType?)]) async throws -> TableSchema? {
        guard let current = try await schema(of: table, in: namespace), try Self.covers(current, needed, fixed: fixed) else { return nil }
        return current
    }

    /// Runs `start`, then `body`, in one write transaction, with the namespace's table holding a
    /// column for every name in `needed`. Missing tables and columns are made in that same
    /// transaction, so a request that fails (a bad type, a limit, a conflict) leaves no schema
    /// change behind: DDL is transactional on both SQLite and PostgreSQL.
    ///
    /// `start` runs once the table has its columns: the table service takes the clock row there.
    /// Every writer takes the physical table before the clock row (see
    /// `SQLDialect.openForWriteSQL`), so here ALTER TABLE's exclusive lock comes first too. Taking
    /// the clock row first deadlocked on PostgreSQL with a writer that held the table and waited
    /// for the row. Throws a `TableError` for a type mismatch, a limit, or in fixed-schema mode
    /// anything unknown.
    func write<Start: Sendable, T: Sendable>(
        _ table: String, in namespace: String, columns needed: [(name: String, type: ColumnType?)],
        start: @escaping @Sendable (TableSchema, any SQLSession) throws -> Start,
        _ body: @escaping @Sendable (TableSchema, Start, any SQLSession) throws -> T
    ) async throws -> T {
        if let current = try await covering(table, in: namespace, needed) {
            return try await database.write { try body(current, try start(current, $0), $0) }
        }
        if fixed {
            guard let current = try await schema(of: table, in: namespace, fresh: true) else { throw TableError.tableNotFound }
            _ = try Self.covers(current, needed, fixed: true)
            return try await database.write { try body(current, try start(current, $0), $0) }
        }
        let key = Key(namespace: namespace, table: table)
        let dialect = database.dialect
        let limits = self.limits
        startGrowing(key)
        let schema: TableSchema, value: T
        do {
            (schema, value) = try await database.migrate { session in
                let (schema, grew) = try NamespaceCatalog.grow(namespace, table, to: needed, limits: limits, dialect: dialect, session: session)
                if grew { try session.announceSchemaChange(of: key.announced) }
                return (schema, try body(schema, try start(schema, session), session))
            }
        } catch {
            stopGrowing(key, grown: nil)
            throw error
        }
        stopGrowing(key, grown: schema)
        return value
    }

    /// Drops a cached schema, named as `Key.announced` (nil: every one), so the next use reads it again.
    func forget(_ announced: String?) {
        cache.withLock { cache in
            if let announced {
                if let key = Key(announced: announced) { cache.tables[key] = nil } else { cache.tables.removeAll() }
            } else {
                cache.tables.removeAll()
            }
            cache.generation += 1
        }
    }

    /// Marks a table as changing: its write's commit publishes the change (a client that hears of
    /// it may query at once) before `write` gets to `stopGrowing`, and a cached "no table" read
    /// then made the new rows invisible (`todo watch` missed a first change now and then).
    private func startGrowing(_ key: Key) {
        cache.withLock { cache in
            cache.growing[key, default: 0] += 1
            cache.generation += 1
        }
    }

    /// Ends `startGrowing`: keeps the schema the write made, or (nil: it failed, perhaps after
    /// committing) drops the table's entry so the next use reads it again. Moves the generation
    /// on, so a read that began before (it may have seen no table at all) is not kept either.
    private func stopGrowing(_ key: Key, grown schema: TableSchema?) {
        cache.withLock { cache in
            cache.generation += 1
            cache.tables[key] = schema.map { CachedSchema(schema: $0, loadedAt: Date()) }
            let left = (cache.growing[key] ?? 1) - 1
            cache.growing[key] = left > 0 ? left : nil
        }
    }

    /// Keeps a schema read when the cache was at `generation`, unless something changed since.
    private func remember(_ schema: TableSchema?, for key: Key, readAt generation: Int) {
        cache.withLock { cache in
            guard cache.generation == generation, cache.growing[key] == nil else { return }
            if cache.tables.count >= Self.cacheLimit { cache.tables.removeAll(keepingCapacity: true) }
            cache.tables[key] = CachedSchema(schema: schema, loadedAt: Date())
        }
    }

    /// True when every needed column exists; throws on a type mismatch (or, when `fixed`, an unknown column).
    static func covers(_ schema: TableSchema, _ needed: [(name: String, type: ColumnType?)], fixed: Bool) throws -> Bool {
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

    /// A physical table with the owner column first, `schema`'s columns (system ones NOT NULL),
    /// the primary key (owner, id) and the incremental-pull index.
    static func create(_ table: String, schema: TableSchema, dialect: any SQLDialect, session: any SQLSession) throws {
        let columns = schema.columns.map { column -> String in
            let required = SystemProperty.isSystem(column.name) && column != TableSchema.writerColumn
            return dialect.quote(column.physical) + " " + dialect.columnDefinition(column.type) + (required ? " NOT NULL" : "")
        }
        let definitions = ["\(TableSchema.ownerColumn) TEXT NOT NULL DEFAULT ''"] + columns + ["PRIMARY KEY (\(TableSchema.ownerColumn), \"id\")"]
        try session.execute("CREATE TABLE \(dialect.quote(table)) (\(definitions.joined(separator: ", ")))", [])
        try session.execute(
            "CREATE INDEX \(dialect.quote(table + "_updatedAt_id")) ON \(dialect.quote(table)) (\(TableSchema.ownerColumn), \"updatedAt\", \"id\")", [])
    }

    /// An operator's table as it is (fixed schema): every column under its own name.
    private static func loadPhysical(_ table: String, dialect: any SQLDialect, session: any SQLSession) throws -> TableSchema? {
        let rows = try session.query(dialect.listColumnsSQL, [.text(table)]).rows
        guard !rows.isEmpty else { return nil }
        return TableSchema(columns: rows.compactMap { row in
            guard let name = row[0].text, name != TableSchema.ownerColumnName,
                  let declared = row[1].text, let type = dialect.columnType(declared: declared) else { return nil }
            return TableSchema.Column(name: name, type: type)
        }, physicalTable: table)
    }
}
