import FilterSQL
import Foundation
import GRDB
import TableProtocol

/// The `SyncStoreSession` of `SQLiteSyncStore`, on one GRDB connection.
struct SQLiteStoreSession: SyncStoreSession {
    let db: Database
    let definitions: [String: SyncTableDefinition]
    /// Which tables' text-search indexes queries may use now.
    var searchIndexes = SearchIndexState([])

    func definition(_ table: String) throws -> SyncTableDefinition {
        guard let definition = definitions[table.lowercased()] else {
            throw SyncError(.invalidParameter, "The table '\(table)' is not declared in the local store")
        }
        return definition
    }

    func q(_ name: String) -> String { StoreMigrator.quote(name) }

    // MARK: Items

    func item(in table: String, id: String, space: String?) throws -> JSONObject? {
        let definition = try definition(table)
        let row = try Row.fetchOne(selectByKey(definition), arguments: [id, space ?? ""])
        return row.map { ItemRow.object(fromSelected: $0, columns: definition.allColumns) }
    }

    func items(in table: String, id: String) throws -> [JSONObject] {
        let definition = try definition(table)
        // The account's own row ('') first, then by space.
        let sql = selectRows(definition) + " WHERE \(q(SystemProperty.id.rawValue)) = ? ORDER BY ifnull(\(q(SharedSpace.column)), '')"
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [id])
            .map { ItemRow.object(fromSelected: $0, columns: definition.allColumns) }
    }

    /// The row with a key, its columns in `allColumns` order. Read by position: GRDB's lookup
    /// by name lower-cases every name, which cost a quarter of `todo edit --all` on 10,000 items.
    func selectByKey(_ definition: SyncTableDefinition) throws -> Statement {
        try db.cachedStatement(sql: selectRows(definition) + " WHERE " + StoreMigrator.keyClause)
    }

    /// Every column of the table's rows, in `allColumns` order.
    func selectRows(_ definition: SyncTableDefinition) -> String {
        "SELECT \(definition.columnList) FROM \(q(definition.name))"
    }

    func items(_ query: SyncQuery) throws -> SyncQueryResult {
        let (select, statements) = try selection(query)
        // Each row read in place from the statement: `fetchAll` copied every row's values first.
        let rows = try Row.fetchCursor(try prepared(statements.rowsSQL, statements.rowsBinds), arguments: StatementArguments(statements.rowsBinds))
        var items: [JSONObject] = []
        while let row = try rows.next() { items.append(select.item(from: row)) }
        let count = try statements.countSQL.map {
            try Int.fetchOne(try prepared($0, statements.countBinds), arguments: StatementArguments(statements.countBinds)) ?? 0
        }
        return SyncQueryResult(items: items, totalCount: count)
    }

    func forEachChunk(_ query: SyncQuery, size: Int, _ body: ([JSONObject], Set<ItemKey>) throws -> Void) throws {
        let (select, statements) = try selection(query)
        let rows = try Row.fetchCursor(try prepared(statements.rowsSQL, statements.rowsBinds), arguments: StatementArguments(statements.rowsBinds))
        var chunk: [JSONObject] = []
        chunk.reserveCapacity(size)
        func flush() throws {
            let ids = chunk.compactMap { $0[SystemProperty.id]?.stringValue }
            try body(chunk, try pendingItemKeys(table: select.tableName, among: ids))
            chunk.removeAll(keepingCapacity: true)
        }
        while let row = try rows.next() {
            chunk.append(select.item(from: row))
            if chunk.count == size { try flush() }
        }
        if !chunk.isEmpty { try flush() }
    }

    func values(_ query: SyncQuery) throws -> [[JSONValue]] {
        let (select, statements) = try selection(query)
        guard let fields = select.selectedFields else {
            throw SyncError(.invalidParameter, "Invalid query: reading values needs the fields to read (select)")
        }
        let rows = try Row.fetchCursor(try prepared(statements.rowsSQL, statements.rowsBinds), arguments: StatementArguments(statements.rowsBinds))
        var values: [[JSONValue]] = []
        while let row = try rows.next() {
            values.append(fields.map { select.value(of: $0, in: row) })
        }
        return values
    }

    /// The statement of a query's `sql` with `binds`, cached; many binds are made anonymous where
    /// they can be (`AnonymousPlaceholders`).
    private func prepared(_ sql: String, _ binds: [DatabaseValue]) throws -> Statement {
        guard binds.count >= AnonymousPlaceholders.fewestBinds else { return try db.cachedStatement(sql: sql) }
        return try db.cachedStatement(sql: AnonymousPlaceholders.rewrite(sql, count: binds.count) ?? sql)
    }

    /// A query's statements: the rows' and the count's, from the text-search index with the
    /// fewest candidates when they are few enough.
    private func selection(_ query: SyncQuery) throws -> (LocalSelect, (rowsSQL: String, rowsBinds: [DatabaseValue], countSQL: String?, countBinds: [DatabaseValue])) {
        let definition = try definition(query.table)
        let select = try LocalSelect(query: query, definition: definition, searchIndexed: searchIndexes.isCurrent(definition.name))
        // The index with the fewest candidates, if it has few enough.
        var fewest: (candidates: Int, search: LocalSelect.Search)?
        for search in select.searches {
            let candidates = try Int.fetchOne(db.cachedStatement(sql: search.probeSQL), arguments: [search.matchBind]) ?? 0
            if candidates <= TextSearchIndex.maximumCandidates, candidates < fewest?.candidates ?? .max { fewest = (candidates, search) }
        }
        if let search = fewest?.search {
            return (select, (search.rowsSQL, search.rowsBinds, search.countSQL, search.countBinds))
        }
        return (select, (select.rowsSQL, select.rowsBinds, select.countSQL, select.countBinds))
    }

    func counts(_ query: SyncQuery, groupedBy column: String) throws -> [JSONValue: Int] {
        let definition = try definition(query.table)
        guard let grouped = definition.column(named: column) else {
            throw SyncError(.invalidParameter, "Invalid query: cannot group by '\(column)', not a column of '\(definition.name)'")
        }
        let select = try LocalSelect(query: query, definition: definition)
        let name = q(grouped.name)
        let sql = "SELECT \(name), COUNT(*) FROM \(q(definition.name))\(select.whereClause) GROUP BY \(name)"
        var counts: [JSONValue: Int] = [:]
        for row in try Row.fetchAll(try prepared(sql, select.countBinds), arguments: StatementArguments(select.countBinds)) {
            counts[ItemRow.json(row[0] as DatabaseValue, type: grouped.type), default: 0] += row[1] as Int
        }
        return counts
    }

    func upsert(_ items: [JSONObject], in table: String, space: String?) throws {
        try upsert(items, in: table, space: space, pulled: false)
    }

    func upsertPulled(_ items: [JSONObject], in table: String, space: String?, detectingMoves: Bool) throws {
        if detectingMoves { try moveArrivals(items, in: try definition(table), to: space) }
        try upsert(items, in: table, space: space, pulled: true)
    }

    func holdsRows(in table: String, outside space: String?) throws -> Bool {
        let definition = try definition(table)
        let column = q(SharedSpace.column)
        // The own namespace's pull asks the shared rows' partial index; a space's may walk rows of
        // that space before it finds another's, once per pull.
        let sql = space == nil ? "SELECT EXISTS (SELECT 1 FROM \(q(definition.name)) WHERE \(column) IS NOT NULL)"
            : "SELECT EXISTS (SELECT 1 FROM \(q(definition.name)) WHERE \(column) IS NOT ?)"
        return try Bool.fetchOne(db, sql: sql, arguments: space.map { [$0] } ?? []) ?? false
    }

    /// Inserts new rows into `space`; of an existing row there, writes only the columns whose
    /// values differ. The row keeps its rowid, and an index is rewritten only when one of its
    /// columns changed: a row written back after a push differs only in its version and
    /// timestamps, and rewriting its text indexes (ordered by a Swift collation) cost more than
    /// reading the row first.
    /// `pulled`: a pulled row whose version the local row already has is that very row (a device
    /// pulling back what it just pushed), so nothing is written.
    private func upsert(_ items: [JSONObject], in table: String, space: String?, pulled: Bool) throws {
        let definition = try definition(table)
        let columns = definition.allColumns
        let select = try selectByKey(definition)
        let insert = try insertStatement(definition, ignoringExisting: true)
        // Without live search-index triggers (a bulk load, a table without them) a failed insert
        // is cheap, so rows are inserted first and only existing ones read: a first pull of
        // 100,000 rows is mostly new rows (BENCHMARKS.md, "OfflineSync": the app's first pull).
        let insertFirst = !searchIndexes.isCurrent(definition.name)
        let versionIndex = columns.firstIndex { $0.name == SystemProperty.version.rawValue }!
        let spaceIndex = columns.firstIndex { $0.name == SharedSpace.column }!
        let place: DatabaseValue = space?.databaseValue ?? .null
        for item in items {
            var values = try ItemRow.values(of: item, definition: definition)
            values[spaceIndex] = place
            if insertFirst {
                try insert.execute(binding: values)
                if db.changesCount > 0 { continue }
            }
            guard let row = try Row.fetchOne(select, arguments: [values[0], space ?? ""]) else {
                try insert.execute(binding: values)
                continue
            }
            let stored = columns.indices.map { row[$0] as DatabaseValue }
            if pulled, !values[versionIndex].isNull, values[versionIndex] == stored[versionIndex] { continue }
            try updateChanged(values, stored: stored, definition)
        }
    }

    /// Of pulled rows new to `space`, the ones another namespace here holds at the same id and
    /// version: moved on the server (moves keep ids and versions, and only the server hands
    /// versions out), so moved here with their queued changes, base copies, undo steps and
    /// conflict history. One statement finds them for the page.
    private func moveArrivals(_ items: [JSONObject], in definition: SyncTableDefinition, to space: String?) throws {
        var versions: [String: String] = [:]
        for item in items {
            guard let id = item[SystemProperty.id]?.stringValue, let version = item[SystemProperty.version]?.stringValue else { continue }
            versions[id.lowercased()] = version
        }
        guard !versions.isEmpty else { return }
        let id = q(SystemProperty.id.rawValue), column = q(SharedSpace.column)
        let sql = "SELECT \(id), \(column), \(q(SystemProperty.version.rawValue)) FROM \(q(definition.name)) WHERE \(id) IN (SELECT \"value\" FROM json_each(?)) "
            + "AND ifnull(\(column), '') <> ? AND NOT EXISTS (SELECT 1 FROM \(q(definition.name)) here WHERE here.\(id) = \(q(definition.name)).\(id) AND ifnull(here.\(column), '') = ?)"
        let list = JSONWriter.string(.array(versions.keys.map { .string($0) }))
        for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [list, space ?? "", space ?? ""]) {
            let found: String = row[0]
            guard let version: String = row[2], versions[found.lowercased()] == version else { continue }
            try moveItems(in: definition.name, ids: [found], from: row[1], to: space)
        }
    }

    /// One UPDATE of the stamp columns per row: the row is not read, nor its other columns
    /// compared, as `upsert` does.
    func writeStamps(_ items: [JSONObject], in table: String, space: String?) throws {
        guard !items.isEmpty else { return }
        let definition = try definition(table)
        let columns = definition.allColumns.filter { column in SystemProperty(rawValue: column.name).map { $0 != .id } ?? false }
        let update = try db.cachedStatement(sql: "UPDATE \(q(definition.name)) SET \(columns.map { "\(q($0.name)) = ?" }.joined(separator: ", ")) WHERE \(StoreMigrator.keyClause)")
        for item in items {
            guard let id = item[SystemProperty.id.rawValue] else { continue }
            var arguments = try columns.map { try ItemRow.value(item[$0.name] ?? .null, for: $0, in: definition) }
            arguments.append(try ItemRow.value(id, for: definition.allColumns[0], in: definition))
            arguments.append((space ?? "").databaseValue)
            try update.execute(binding: arguments)
        }
    }

    /// The item is written over `current` as read in this transaction, so neither is read again:
    /// `todo edit --all` read each row three times before. A new item goes into its own space
    /// column's space; an existing one stays in `current`'s.
    func write(_ item: JSONObject, over current: JSONObject?, in table: String) throws -> JSONObject {
        let definition = try definition(table)
        var values = try ItemRow.values(of: item, definition: definition)
        if let current {
            let stored = try ItemRow.values(of: current, definition: definition)
            let spaceIndex = definition.allColumns.firstIndex { $0.name == SharedSpace.column }!
            values[spaceIndex] = stored[spaceIndex]
            try updateChanged(values, stored: stored, definition)
            values[0] = stored[0]  // the row keeps its id's letter case
        } else {
            try insertStatement(definition, ignoringExisting: false).execute(binding: values)
        }
        return ItemRow.object(fromValues: values, columns: definition.allColumns)
    }

    private func insertStatement(_ definition: SyncTableDefinition, ignoringExisting: Bool) throws -> Statement {
        let placeholders = Array(repeating: "?", count: definition.allColumns.count).joined(separator: ", ")
        return try db.cachedStatement(sql: "INSERT INTO \(q(definition.name)) (\(definition.columnList)) VALUES (\(placeholders))"
            + (ignoringExisting ? " ON CONFLICT (\(StoreMigrator.keyColumns)) DO NOTHING" : ""))
    }

    /// Writes the columns whose values differ from the stored row's (both in `allColumns` order;
    /// the key columns are the stored row's).
    private func updateChanged(_ values: [DatabaseValue], stored: [DatabaseValue], _ definition: SyncTableDefinition) throws {
        let spaceIndex = definition.allColumns.firstIndex { $0.name == SharedSpace.column }!
        let changed = values.indices.filter { $0 != 0 && $0 != spaceIndex && values[$0] != stored[$0] }
        if changed.isEmpty { return }
        let names = definition.quotedColumns
        let update = try db.cachedStatement(
            sql: "UPDATE \(q(definition.name)) SET \(changed.map { "\(names[$0]) = ?" }.joined(separator: ", ")) WHERE \(StoreMigrator.keyClause)")
        // Typed: as a literal `[Any]`, GRDB's failable `init?(_: [Any])` cast every value.
        let place: DatabaseValue = stored[spaceIndex].isNull ? "".databaseValue : stored[spaceIndex]
        let arguments: [DatabaseValue] = changed.map { values[$0] } + [stored[0], place]
        try update.execute(binding: arguments)
    }

    func beginBulkLoad(table: String) throws -> Bool {
        let definition = try definition(table)
        guard searchIndexes.isCurrent(definition.name),
              try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(q(definition.name)))")! else { return false }
        try TextSearchIndex.suspend(db, table: definition)
        searchIndexes.set(definition.name, current: false)
        return true
    }

    func suspendIndexes(table: String) throws -> [String] {
        let definition = try definition(table)
        // Not the key: every write of the load looks rows up by it.
        let indexes = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL AND name <> ?",
                                       arguments: [definition.name, StoreMigrator.keyIndex(definition)])
        for index in indexes { try db.execute(sql: "DROP INDEX \(q(index["name"]))") }
        return indexes.map { $0["sql"] }
    }

    /// A page cache of 32 MiB (taken only as used) for the transaction, the connection's own size
    /// after it: with SQLite's 2 MB, `todo import` of 10,000 items spilled pages to the WAL midway
    /// (a small cost, within noise in alternated runs; BENCHMARKS.md, "Bulk cycle against
    /// Taskwarrior"). Kept for every write, the cache made a first pull of 1,000,000 items hold
    /// more memory, no faster (BENCHMARKS.md, "The app at a million items").
    func withRoomForLargeWrites<T>(_ body: () throws -> T) throws -> T {
        let previous = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
        try db.execute(sql: "PRAGMA cache_size = -32768")
        defer { try? db.execute(sql: "PRAGMA cache_size = \(previous)") }
        return try body()
    }

    func restoreIndexes(_ statements: [String]) throws {
        for statement in statements { try db.execute(sql: statement) }
    }

    func endBulkLoad(table: String) throws {
        let definition = try definition(table)
        try TextSearchIndex.resume(db, table: definition)
        searchIndexes.set(definition.name, current: true)
    }

    func deleteItems(ids: [String], in table: String, space: String?) throws {
        let definition = try definition(table)
        let statement = try db.cachedStatement(sql: "DELETE FROM \(q(definition.name)) WHERE \(StoreMigrator.keyClause)")
        for id in ids { try statement.execute(arguments: [id, space ?? ""]) }
    }

    func moveItems(in table: String, ids: [String], from: String?, to: String?) throws {
        let definition = try definition(table)
        let (source, target) = (from ?? "", to ?? "")
        guard source != target else { return }
        let row = try db.cachedStatement(sql: "UPDATE \(q(definition.name)) SET \(q(SharedSpace.column)) = ? WHERE \(StoreMigrator.keyClause)")
        let taken = try selectByKey(definition)
        for id in ids {
            // The target holding a row of this id already (another item there): this one stays.
            guard try Row.fetchOne(taken, arguments: [id, target]) == nil else { continue }
            try row.execute(arguments: [to, id, source])
            for statement in Self.entriesFollowingAMove {
                let arguments: StatementArguments = [definition.name, id, source, target]
                try db.cachedStatement(sql: statement).execute(arguments: statement.contains("?5") ? arguments + [to] : arguments)
            }
        }
    }

    /// Entries that name a moved item, moved with it (bound: table, id, from, to, and the new
    /// space column's value). Their copies of the item keep its space too, so what they bring
    /// back (an undo, a restored conflict, a queued delete) lands where the row is now.
    private static let entriesFollowingAMove = [
        #"UPDATE "MS_TableOperations" SET "space" = ?4, "item" = \#(respaced("item")) WHERE "tableName" = ?1 AND "itemId" = ?2 AND "space" = ?3"#,
        #"UPDATE "MS_TableOperationErrors" SET "space" = ?4 WHERE "tableName" = ?1 AND "itemId" = ?2 AND "space" = ?3"#,
        #"UPDATE "MS_BaseItems" SET "space" = ?4, "item" = \#(respaced("item")) WHERE "tableName" = ?1 AND "itemId" = ?2 AND "space" = ?3"#,
        #"UPDATE "MS_UndoJournal" SET "space" = ?4, "before" = \#(respaced("before")), "after" = \#(respaced("after")) WHERE "tableName" = ?1 AND "itemId" = ?2 AND "space" = ?3"#,
        #"UPDATE "MS_ConflictLog" SET "space" = ?4, "local" = \#(respaced("local")), "server" = \#(respaced("server")) WHERE "tableName" = ?1 AND "itemId" = ?2 AND "space" = ?3"#,
    ]

    /// A stored item copy (JSON text, or null) with its space set to `?5` (null: the own namespace).
    private static func respaced(_ column: String) -> String {
        "CASE WHEN json_valid(\"\(column)\") THEN json_set(\"\(column)\", '$.__space', ?5) ELSE \"\(column)\" END"
    }

    func deleteItems(matching query: SyncQuery) throws {
        let definition = try definition(query.table)
        var unlimited = query
        unlimited.fetchLimit = nil
        unlimited.fetchOffset = nil
        let statement = try LocalSelect(query: unlimited, definition: definition)
        try db.execute(sql: "DELETE FROM \(q(definition.name))\(statement.whereClause)", arguments: StatementArguments(statement.countBinds))
    }

    // MARK: Operations

    /// The columns `operation(from:)` reads, by position (a push reads two operations per item).
    static let operationColumns = #"SELECT "id", "tableName", "itemId", "type", "item", "space", "sent" FROM "MS_TableOperations""#

    func operation(from row: Row) -> QueuedOperation {
        let space: String = row[5]
        return QueuedOperation(
            id: row[0], table: row[1], itemId: row[2], space: space.isEmpty ? nil : space,
            type: TableOperationType(rawValue: row[3]) ?? .update,
            snapshot: (row[4] as String?).flatMap(JSONText.decodeObject), sent: row[6])
    }

    func operation(after id: Int64) throws -> QueuedOperation? {
        try Row.fetchOne(db.cachedStatement(sql: Self.operationColumns + #" WHERE "id" > ? ORDER BY "id" LIMIT 1"#), arguments: [id])
            .map(operation(from:))
    }

    func operation(id: Int64) throws -> QueuedOperation? {
        try Row.fetchOne(db.cachedStatement(sql: Self.operationColumns + #" WHERE "id" = ?"#), arguments: [id]).map(operation(from:))
    }

    func newestOperation(table: String, itemId: String, space: String?) throws -> QueuedOperation? {
        try Row.fetchOne(
            db.cachedStatement(sql: Self.operationColumns + #" WHERE "tableName" = ? AND "itemId" = ? AND "space" = ? ORDER BY "id" DESC LIMIT 1"#),
            arguments: [table, itemId, space ?? ""]
        ).map(operation(from:))
    }

    func pendingItemIds(table: String) throws -> Set<String> {
        Set(try String.fetchAll(db.cachedStatement(sql: "SELECT DISTINCT \"itemId\" FROM \"MS_TableOperations\" WHERE \"tableName\" = ?"),
                                arguments: [table]).map { $0.lowercased() })
    }

    func pendingItemKeys(table: String) throws -> Set<ItemKey> {
        Set(try Row.fetchAll(db.cachedStatement(sql: #"SELECT DISTINCT "itemId", "space" FROM "MS_TableOperations" WHERE "tableName" = ?"#),
                             arguments: [table]).map(Self.itemKey))
    }

    func operationCount(table: String, itemId: String, space: String?) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: #"SELECT COUNT(*) FROM "MS_TableOperations" WHERE "tableName" = ? AND "itemId" = ? AND "space" = ?"#),
                         arguments: [table, itemId, space ?? ""]) ?? 0
    }

    func operationCount(table: String?) throws -> Int {
        if let table {
            return try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM \"MS_TableOperations\" WHERE \"tableName\" = ?"), arguments: [table]) ?? 0
        }
        return try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM \"MS_TableOperations\"")) ?? 0
    }

    func appendOperation(table: String, itemId: String, space: String?, type: TableOperationType, snapshot: JSONObject?) throws -> Int64 {
        try db.cachedStatement(sql: #"INSERT INTO "MS_TableOperations" ("tableName", "itemId", "space", "type", "item") VALUES (?, ?, ?, ?, ?)"#)
            .execute(arguments: [table, itemId, space ?? "", type.rawValue, snapshot.map(JSONText.encode)])
        return db.lastInsertedRowID
    }

    func updateOperation(id: Int64, type: TableOperationType, snapshot: JSONObject?) throws {
        try db.cachedStatement(sql: "UPDATE \"MS_TableOperations\" SET \"type\" = ?, \"item\" = ? WHERE \"id\" = ?")
            .execute(arguments: [type.rawValue, snapshot.map(JSONText.encode), id])
    }

    func removeOperation(id: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM \"MS_TableOperations\" WHERE \"id\" = ?").execute(arguments: [id])
        try removeErrors(operationId: id)
    }

    func removeOperations(table: String) throws {
        try db.execute(sql: "DELETE FROM \"MS_TableOperations\" WHERE \"tableName\" = ?", arguments: [table])
        try db.execute(sql: "DELETE FROM \"MS_TableOperationErrors\" WHERE \"tableName\" = ?", arguments: [table])
        try db.execute(sql: "DELETE FROM \"MS_BaseItems\" WHERE \"tableName\" = ?", arguments: [table])
    }

    // MARK: Errors

    func addError(_ error: OperationError) throws -> OperationError {
        try db.execute(sql: """
            INSERT INTO "MS_TableOperationErrors" ("operationId", "tableName", "itemId", "space", "operationType", "statusCode", "code",
                "message", "clientItem", "serverItem", "rawResponse") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [
                error.operationId, error.table, error.itemId, error.space ?? "", error.operationType.rawValue, error.statusCode, error.code,
                error.message, error.clientItem.map(JSONText.encode), error.serverItem.map(JSONText.encode), error.rawResponse,
            ])
        var stored = error
        stored.id = db.lastInsertedRowID
        return stored
    }

    func errors() throws -> [OperationError] {
        try Row.fetchAll(db, sql: "SELECT * FROM \"MS_TableOperationErrors\" ORDER BY \"id\"").map { row in
            OperationError(
                id: row["id"], operationId: row["operationId"], table: row["tableName"], itemId: row["itemId"],
                space: (row["space"] as String?).flatMap { $0.isEmpty ? nil : $0 },
                operationType: TableOperationType(rawValue: row["operationType"]) ?? .update, statusCode: row["statusCode"],
                code: row["code"], message: row["message"],
                clientItem: (row["clientItem"] as String?).flatMap(JSONText.decodeObject),
                serverItem: (row["serverItem"] as String?).flatMap(JSONText.decodeObject),
                rawResponse: row["rawResponse"])
        }
    }

    func removeError(id: Int64) throws {
        try db.execute(sql: "DELETE FROM \"MS_TableOperationErrors\" WHERE \"id\" = ?", arguments: [id])
    }

    func removeErrors(operationId: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM \"MS_TableOperationErrors\" WHERE \"operationId\" = ?").execute(arguments: [operationId])
    }

    // MARK: Tokens

    func deltaToken(table: String, queryId: String) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT \"value\" FROM \"MS_TableConfig\" WHERE \"tableName\" = ? AND \"key\" = ? AND \"keyType\" = 0"),
            arguments: [table, queryId])
    }

    func setDeltaToken(_ token: String?, table: String, queryId: String) throws {
        if let token {
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO \"MS_TableConfig\" (\"tableName\", \"key\", \"keyType\", \"value\") VALUES (?, ?, 0, ?)")
                .execute(arguments: [table, queryId, token])
        } else {
            try db.execute(sql: "DELETE FROM \"MS_TableConfig\" WHERE \"tableName\" = ? AND \"key\" = ? AND \"keyType\" = 0", arguments: [table, queryId])
        }
    }

    func removeDeltaTokens(table: String) throws {
        try db.execute(sql: "DELETE FROM \"MS_TableConfig\" WHERE \"tableName\" = ?", arguments: [table])
    }

    func removeDeltaTokens(table: String, queryIdSuffix suffix: String) throws {
        try db.execute(sql: "DELETE FROM \"MS_TableConfig\" WHERE \"tableName\" = ? AND \"keyType\" = 0 AND substr(\"key\", -length(?)) = ?",
                       arguments: [table, suffix, suffix])
    }

    func spaces(in table: String) throws -> Set<String> {
        let definition = try definition(table)
        return Set(try String.fetchAll(db, sql: "SELECT DISTINCT \(q(SharedSpace.column)) FROM \(q(definition.name)) WHERE \(q(SharedSpace.column)) IS NOT NULL"))
    }
}
