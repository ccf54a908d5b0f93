import FilterSQL
import Foundation
import TableProtocol

/// Which rows one move takes from a table: those of the source namespace's `table` that
/// `filter` (an OData `$filter`, as a query would send it) selects; live rows only.
public struct MoveSelection: Sendable, Equatable {
    /// The table, as a client names it.
    public var table: String
    /// The `$filter` selecting the rows.
    public var filter: String

    /// A selection.
    public init(table: String, filter: String) {
        (self.table, self.filter) = (table, filter)
    }
}

/// What a move took from one table: the ids, now the target namespace's.
public struct MovedRows: Sendable, Equatable {
    /// The table, as the server keys it (lower-cased).
    public var table: String
    /// The moved rows' ids.
    public var ids: [String]
    /// The moved rows given a new id in the target (its live rows held theirs): old id → new.
    public var renamed: [String: String] = [:]
}

/// Moving rows between namespaces (an account's own and a shared space, either way) as one
/// transaction: each selected live row is written into the target namespace with the same id,
/// its version and `createdAt` kept, and left behind as a tombstone that `MoveRecords` ties to
/// where it went. Both namespaces' clocks tick, so an incremental pull of either sees the move.
///
/// Why ids and versions are kept: every device names the row by its id (undo steps, conflict
/// history, scripts), and a device that changed it offline sends its change with the version it
/// had; kept, that change applies in the target as if nothing had moved.
enum NamespaceMove {
    /// Most rows one move takes (a whole shared list's items in one transaction).
    static let maxRows = 100_000
    /// Most tables one move names.
    static let maxSelections = 16

    /// One table's part of a move, inside the move's transaction. A row whose id a live row of
    /// the target holds already (a collaborator wrote a row with one of the owner's ids) arrives
    /// with a new id, recorded so that a change sent to its old place follows it: both rows are
    /// kept, and the move never half-fails.
    static func move(_ table: String, query: TableQuery, from source: String, to target: String, writer: String?, groupColumn: String?, limits: SchemaLimits,
                     dialect: any SQLDialect, session: any SQLSession) throws -> (moved: MovedRows, grewTarget: Bool) {
        guard let from = try NamespaceCatalog.load(source, table, dialect: dialect, session: session) else {
            return (MovedRows(table: table, ids: []), false)
        }
        let select = try SelectStatement(dialect: dialect, schema: from, fixedSchema: false, query: query, top: maxRows, skip: 0)
        let result = try session.query(select.rowsSQL, select.rowsBinds(owner: source))
        guard result.rows.count <= maxRows else {
            throw TableError.badRequest("A move takes at most \(maxRows) rows of a table; this filter selects more")
        }
        guard !result.rows.isEmpty else { return (MovedRows(table: table, ids: []), false) }
        let items = result.rows.map { StoredItem(row: $0, columns: result.columns, schema: from) }
        let contents = try items.map { item in
            try ItemBody(JSONObject(item.properties.filter { !SystemProperty.isSystem($0.key) }.map { ($0.key, $0.value) })).properties
        }
        // Only the properties the moved rows have values in: an empty column would take the
        // target namespace's room (`--max-columns`) for nothing.
        var needed: [(name: String, type: ColumnType?)] = []
        var seen = Set<String>()
        for content in contents {
            for (name, value) in content where value != .null && seen.insert(name.lowercased()).inserted {
                needed.append((name, ColumnType(for: value)))
            }
        }
        let (to, grew) = try NamespaceCatalog.grow(target, table, to: needed, limits: limits, dialect: dialect, session: session)
        if grew { try session.announceSchemaChange(of: SchemaRegistry.Key(namespace: target, table: table).announced) }
        // Both clock rows, always in the same order, so two moves never wait on each other's.
        var stamps: [String: String] = [:]
        for (namespace, schema) in [(source, from), (target, to)].sorted(by: { $0.0 < $1.0 }) {
            stamps[namespace] = try TableClock.next(for: table, in: schema, owner: namespace, dialect: dialect, session: session)
        }
        let leaving = RowAccess(dialect: dialect, table: table, schema: from, owner: source, writer: writer, groupColumn: groupColumn)
        let arriving = RowAccess(dialect: dialect, table: table, schema: to, owner: target, writer: writer, groupColumn: groupColumn)
        var renamed: [String: String] = [:]
        for (item, content) in zip(items, contents) {
            let id = item.id
            let createdAt = item.properties[SystemProperty.createdAt.rawValue]?.stringValue ?? stamps[target]!
            var placedId = id
            var arrived = try arriving.place(id: id, properties: content, createdAt: createdAt, version: item.version,
                                             timestamp: stamps[target]!, session: session)
            if arrived == nil {
                placedId = UUID().uuidString.lowercased()
                arrived = try arriving.place(id: placedId, properties: content, createdAt: createdAt, version: item.version,
                                             timestamp: stamps[target]!, session: session)
                renamed[id] = placedId
            }
            guard let placed = arrived else { throw TableError.refused("The row '\(id)' of '\(table)' could not be placed: nothing was moved") }
            guard let tombstone = try leaving.setDeleted(true, id: id, timestamp: stamps[source]!, version: TableWrite.newVersion(), session: session)
            else { throw TableError.itemNotFound }
            try MoveRecords.record(source, table, id: id, version: tombstone.version, to: target, as: renamed[id], dialect: dialect, session: session)
            try MoveRecords.forget(target, table, id: placedId, dialect: dialect, session: session)
            try session.announce(ChangeNotice(table: table, owner: target, item: placed))
            try session.announce(ChangeNotice(table: table, owner: source, item: tombstone))
            try arriving.tickGroups(before: nil, after: placed, stamp: stamps[target]!, session: session)
            try leaving.tickGroups(before: item, after: tombstone, stamp: stamps[source]!, session: session)
        }
        return (MovedRows(table: table, ids: items.map(\.id), renamed: renamed), grew)
    }
}

extension RowAccess {
    /// Writes a moved row here with its own `createdAt` and `version`: a new row, or over this
    /// namespace's tombstone of the id (every property it does not carry cleared). Nil when a
    /// live row holds the id.
    func place(id: String, properties: [(name: String, value: JSONScalar)], createdAt: String, version: String, timestamp: String,
               session: any SQLSession) throws -> StoredItem? {
        var binds = SQLBinds(dialect: dialect)
        var sets = ["\(quoted(.deleted)) = FALSE", "\(quoted(.createdAt)) = \(binds.bind(.text(createdAt)))",
                    "\(quoted(.updatedAt)) = \(binds.bind(.text(timestamp)))", "\(quoted(.version)) = \(binds.bind(.text(version)))"]
        let given = columnValues(properties)
        let givenColumns = Set(given.map(\.column))
        for (column, value) in given { sets.append("\(column) = \(binds.bind(value))") }
        for column in schema.columns where !SystemProperty.isSystem(column.name) && !givenColumns.contains(dialect.quote(column.physical)) {
            sets.append("\(dialect.quote(column.physical)) = NULL")
        }
        let ownerPlaceholder = binds.bind(.text(owner))
        let idPlaceholder = binds.bind(.text(id))
        let revived = try session.query(
            "UPDATE \(quotedTable) SET \(sets.joined(separator: ", ")) WHERE \(TableSchema.ownerColumn) = \(ownerPlaceholder) "
                + "AND \(quoted(.id)) = \(idPlaceholder) AND \(quoted(.deleted)) = TRUE RETURNING \(columnList)", binds.values)
        if let row = revived.rows.first { return StoredItem(row: row, columns: revived.columns, schema: schema) }
        var names = [TableSchema.ownerColumn] + [SystemProperty.id, .createdAt, .updatedAt, .version, .deleted].map(quoted)
        var values: [SQLValue] = [.text(owner), .text(id), .text(createdAt), .text(timestamp), .text(version), .boolean(false)]
        for (column, value) in given {
            names.append(column)
            values.append(value)
        }
        let placeholders = (1...values.count).map(dialect.placeholder).joined(separator: ", ")
        let inserted = try session.query(
            "INSERT INTO \(quotedTable) (\(names.joined(separator: ", "))) VALUES (\(placeholders)) "
                + "ON CONFLICT (\(TableSchema.ownerColumn), \(quoted(.id))) DO NOTHING RETURNING \(columnList)", values)
        return inserted.rows.first.map { StoredItem(row: $0, columns: inserted.columns, schema: schema) }
    }
}
