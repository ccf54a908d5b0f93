import FilterSQL
import Foundation
import TableProtocol

/// The table protocol's operations on any `SQLDatabase`: the same code serves SQLite and PostgreSQL.
public final class TableService: Sendable {
    let database: any SQLDatabase
    let schemas: SchemaRegistry
    let limits: QueryLimits
    let plans = QueryPlanCache()
    let skipSeeks = SkipSeeks()
    /// The tables whose rows fall into groups (lower-cased), and the property grouping each (`GroupClocks`).
    let changeGroups: [String: String]

    /// Creates the service; call `bootstrap()` before use. `changeGroups`: tables whose rows fall
    /// into groups by a text property, each group's newest change kept (`groupStamp`).
    public init(
        database: any SQLDatabase, fixedSchema: Bool, limits: QueryLimits, schemaLimits: SchemaLimits = SchemaLimits(), schemaCacheTTL: TimeInterval,
        changeGroups: [String: String] = [:]
    ) {
        self.database = database
        self.changeGroups = Dictionary(changeGroups.map { ($0.key.caseFolded, $0.value) }, uniquingKeysWith: { first, _ in first })
        self.schemas = SchemaRegistry(database: database, fixedSchema: fixedSchema, limits: schemaLimits, cacheTTL: schemaCacheTTL)
        self.limits = limits
    }

    /// The largest page a query may ask for (`$top`).
    public var maxTop: Int { limits.maxTop }

    /// Creates or upgrades the server's own tables (`ServerMigrations`).
    public func bootstrap() async throws { try await ServerMigrations.run(on: database) }

    /// `GET /tables/{t}/{id}`: the live item, or 404. `readAfter` (ms since 1970): a read replica
    /// may answer only once it holds the table's writes up to then.
    public func read(table: String, id: String, owner: String = "", readAfter: Int64? = nil) async throws -> StoredItem {
        let table = try TableName.key(table)
        guard let schema = try await schemas.schema(of: table, in: owner) else { throw notFound() }
        let dialect = database.dialect
        let item = try await database.routedRead(table: table, owner: owner, after: readAfter) { database in
            try await database.readStatement { try RowAccess(dialect: dialect, table: table, schema: schema, owner: owner).fetch(id: id, session: $0) }
        }
        guard let item, !item.isDeleted else { throw TableError.itemNotFound }
        return item
    }

    /// `POST /tables/{t}`: stores a new item (201) or answers 409 with the existing one. `writer`
    /// (the account's name, nil for anonymous access) becomes its `updatedBy`, as for every write.
    public func insert(table: String, body: JSONObject, owner: String = "", writer: String? = nil) async throws -> StoredItem {
        try await perform(try TableWrite.insert(body), table: table, owner: owner, writer: writer)
    }

    /// `PATCH /tables/{t}/{id}`: changes only the sent properties.
    public func update(table: String, id: String, body: JSONObject, ifMatch: String?, owner: String = "", writer: String? = nil) async throws -> StoredItem {
        try await perform(try TableWrite.update(id: id, body, ifMatch: ifMatch), table: table, owner: owner, writer: writer)
    }

    /// `DELETE /tables/{t}/{id}`: soft-deletes the item and returns it as it now is.
    public func delete(table: String, id: String, ifMatch: String?, owner: String = "", writer: String? = nil) async throws -> StoredItem {
        try await perform(TableWrite.delete(id: id, ifMatch: ifMatch), table: table, owner: owner, writer: writer)
    }

    /// `POST /tables/{t}/{id}`: restores a soft-deleted item (a live item is returned unchanged).
    public func undelete(table: String, id: String, ifMatch: String?, owner: String = "", writer: String? = nil) async throws -> StoredItem {
        try await perform(TableWrite.undelete(id: id, ifMatch: ifMatch), table: table, owner: owner, writer: writer)
    }

    /// Runs one write in its own transaction; columns it needs are added in the same transaction
    /// (a 404, 409 or 412 leaves none behind). A database that can runs it as one statement when
    /// the table has every column it needs; the transaction then serves only what that did not write.
    func perform(_ write: TableWrite, table: String, owner: String, writer: String?) async throws -> StoredItem {
        let table = try TableName.key(table)
        if write.needsExistingTable { guard try await schemas.schema(of: table, in: owner) != nil else { throw notFound() } }
        if let oneStatement = database as? any OneStatementWrites, let schema = try await schemas.covering(table, in: owner, write.neededColumns),
           case let rows = rowAccess(table, schema: schema, owner: owner, writer: writer), !rows.mayRegroup(write),
           let stored = try await oneStatement.writeInOneStatement(write, rows: rows) {
            return stored
        }
        let (stored, physicalTable) = try await schemas.write(table, in: owner, columns: write.neededColumns, start: clock(table, owner: owner)) { schema, now, session in
            (try write.apply(self.rowAccess(table, schema: schema, owner: owner, writer: writer), now: now, session: session), schema.physicalTable)
        }
        database.didWrite(rows: 1, to: physicalTable)
        return stored
    }

    /// The row statements of `owner`'s `table` (lower-cased), with its group column.
    func rowAccess(_ table: String, schema: TableSchema, owner: String, writer: String?) -> RowAccess {
        RowAccess(dialect: database.dialect, table: table, schema: schema, owner: owner, writer: writer, groupColumn: changeGroups[table])
    }

    /// True when `table`'s rows fall into groups (`groupStamp`).
    public func keepsGroups(of table: String) -> Bool {
        (try? TableName.key(table)).map { changeGroups[$0] != nil } ?? false
    }

    /// The newest `updatedAt` of the rows of `owner`'s `table` whose group property is `group`
    /// (nil or "" for the rows without one), the rows that left that group included; nil when
    /// the group never had a row. One read. Only for a table that `keepsGroups`.
    public func groupStamp(table: String, group: String?, owner: String = "") async throws -> String? {
        let table = try TableName.key(table)
        let dialect = database.dialect
        return try await database.readStatement { session in
            try GroupClocks.stamp(of: group ?? "", table: table, owner: owner, dialect: dialect, session: session)
        }
    }

    /// Takes the owner's clock row of the table (locked until commit) and answers the write's `updatedAt`.
    func clock(_ table: String, owner: String) -> @Sendable (TableSchema, any SQLSession) throws -> String {
        let dialect = database.dialect
        return { schema, session in try TableClock.next(for: table, in: schema, owner: owner, dialect: dialect, session: session) }
    }

    func notFound() -> TableError {
        schemas.isFixed ? .tableNotFound : .itemNotFound
    }

}

/// Server limits on queries.
public struct QueryLimits: Sendable {
    /// Rows per page when the client sends no `$top`.
    public var pageSize: Int
    /// The largest `$top` accepted.
    public var maxTop: Int

    /// Creates limits.
    public init(pageSize: Int, maxTop: Int) {
        self.pageSize = pageSize
        self.maxTop = maxTop
    }
}
