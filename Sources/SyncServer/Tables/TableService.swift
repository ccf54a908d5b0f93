import FilterSQL
import Foundation
import TableProtocol

/// The table protocol's operations on any `SQLDatabase`: the same code serves SQLite and PostgreSQL.
public final class TableService: Sendable {
    let database: any SQLDatabase
    let schemas: SchemaRegistry
    let limits: QueryLimits
    let plans = QueryPlanCache()

    /// Creates the service; call `bootstrap()` before use.
    public init(
        database: any SQLDatabase, fixedSchema: Bool, limits: QueryLimits, schemaLimits: SchemaLimits = SchemaLimits(), schemaCacheTTL: TimeInterval
    ) {
        self.database = database
        self.schemas = SchemaRegistry(database: database, fixedSchema: fixedSchema, limits: schemaLimits, cacheTTL: schemaCacheTTL)
        self.limits = limits
    }

    /// Creates the server's own tables.
    public func bootstrap() async throws { try await schemas.bootstrap() }

    /// `GET /tables/{t}/{id}`: the live item, or 404.
    public func read(table: String, id: String, owner: String = "") async throws -> StoredItem {
        let table = try TableName.physical(table)
        guard let schema = try await schemas.schema(of: table) else { throw notFound() }
        let dialect = database.dialect
        let item = try await database.readStatement { try RowAccess(dialect: dialect, table: table, schema: schema, owner: owner).fetch(id: id, session: $0) }
        guard let item, !item.isDeleted else { throw TableError.itemNotFound }
        return item
    }

    /// `POST /tables/{t}`: stores a new item (201) or answers 409 with the existing one.
    public func insert(table: String, body: JSONObject, owner: String = "") async throws -> StoredItem {
        let table = try TableName.physical(table)
        let item = try ItemBody(body)
        let id = item.id ?? UUID().uuidString.lowercased()
        let dialect = database.dialect
        // New columns and the row share one transaction: a conflict leaves no column behind.
        return try await schemas.write(table, columns: item.neededColumns, start: clock(table)) { schema, now, session in
            let rows = RowAccess(dialect: dialect, table: table, schema: schema, owner: owner)
            if let stored = try rows.insert(id: id, properties: item.properties, timestamp: now, version: Self.newVersion(), session: session) {
                try session.announce(ChangeNotice(table: table, owner: owner, item: stored))
                return stored
            }
            throw TableError.conflict(try rows.fetch(id: id, session: session)!)
        }
    }

    /// `PATCH /tables/{t}/{id}`: changes only the sent properties.
    public func update(table: String, id: String, body: JSONObject, ifMatch: String?, owner: String = "") async throws -> StoredItem {
        let table = try TableName.physical(table)
        let item = try ItemBody(body)
        if let bodyID = item.id, bodyID != id {
            throw TableError.badRequest("The item's id '\(bodyID)' does not match the id '\(id)' in the URL")
        }
        let check = VersionCheck(ifMatchHeader: ifMatch, bodyVersion: item.version)
        guard try await schemas.schema(of: table) != nil else { throw notFound() }
        return try await modify(table: table, id: id, owner: owner, columns: item.neededColumns, check: check, requireLive: true) { rows, _, now, session in
            return try rows.update(id: id, properties: item.properties, timestamp: now, version: Self.newVersion(), session: session)
        }
    }

    /// `DELETE /tables/{t}/{id}`: soft-deletes the item and returns it as it now is.
    public func delete(table: String, id: String, ifMatch: String?, owner: String = "") async throws -> StoredItem {
        let table = try TableName.physical(table)
        guard try await schemas.schema(of: table) != nil else { throw notFound() }
        let check = VersionCheck(ifMatchHeader: ifMatch, bodyVersion: nil)
        return try await modify(table: table, id: id, owner: owner, columns: [], check: check, requireLive: true) { rows, _, now, session in
            return try rows.setDeleted(true, id: id, timestamp: now, version: Self.newVersion(), session: session)
        }
    }

    /// `POST /tables/{t}/{id}`: restores a soft-deleted item (a live item is returned unchanged).
    public func undelete(table: String, id: String, ifMatch: String?, owner: String = "") async throws -> StoredItem {
        let table = try TableName.physical(table)
        guard try await schemas.schema(of: table) != nil else { throw notFound() }
        let check = VersionCheck(ifMatchHeader: ifMatch, bodyVersion: nil)
        return try await modify(table: table, id: id, owner: owner, columns: [], check: check, requireLive: false) { rows, existing, now, session in
            guard existing.isDeleted else { return existing }
            return try rows.setDeleted(false, id: id, timestamp: now, version: Self.newVersion(), session: session)
        }
    }

    /// Reads the row under the table's clock lock, checks its version, applies `change`, returns the result;
    /// columns the change needs are added in the same transaction (a 404 or 412 leaves none behind).
    private func modify(
        table: String, id: String, owner: String, columns needed: [(name: String, type: ColumnType?)], check: VersionCheck, requireLive: Bool,
        _ change: @escaping @Sendable (RowAccess, StoredItem, String, any SQLSession) throws -> StoredItem?
    ) async throws -> StoredItem {
        let dialect = database.dialect
        return try await schemas.write(table, columns: needed, start: clock(table)) { schema, now, session in
            let rows = RowAccess(dialect: dialect, table: table, schema: schema, owner: owner)
            guard let existing = try rows.fetch(id: id, session: session) else { throw TableError.itemNotFound }
            if requireLive && existing.isDeleted { throw TableError.itemNotFound }
            try check.verify(existing)
            guard let changed = try change(rows, existing, now, session) else { throw TableError.itemNotFound }
            if changed.version != existing.version { try session.announce(ChangeNotice(table: table, owner: owner, item: changed)) }
            return changed
        }
    }

    /// Takes the table's clock row (locked until commit) and answers the write's `updatedAt`.
    private func clock(_ table: String) -> @Sendable (any SQLSession) throws -> String {
        let dialect = database.dialect
        return { session in try TableClock.next(for: table, dialect: dialect, session: session) }
    }

    private func notFound() -> TableError {
        schemas.isFixed ? .tableNotFound : .itemNotFound
    }

    /// A fresh opaque version: never reused for an id.
    static func newVersion() -> String {
        withUnsafeBytes(of: UUID().uuid) { Data($0).base64EncodedString() }
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
