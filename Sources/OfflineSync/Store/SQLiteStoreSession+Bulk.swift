import GRDB
import TableProtocol

/// Many rows per statement, for a push that reads and settles a batch of operations at once:
/// the ids go in as one JSON array (`json_each`), so each statement is prepared once whatever
/// the count, and SQLite still seeks each id through the index.
extension SQLiteStoreSession {
    private static func idList(_ ids: [String]) -> String { JSONWriter.string(.array(ids.map { .string($0) })) }
    private static func idList(_ ids: [Int64]) -> String { "[" + ids.map(String.init).joined(separator: ",") + "]" }
    private static let inList = #"IN (SELECT "value" FROM json_each(?))"#

    func items(in table: String, ids: [String], space: String?) throws -> [String: JSONObject] {
        let definition = try definition(table)
        let columns = definition.allColumns
        let select = try db.cachedStatement(sql: selectRows(definition)
            + " WHERE \(q(SystemProperty.id.rawValue)) \(Self.inList) AND ifnull(\(q(SharedSpace.column)), '') = ?")
        var found: [String: JSONObject] = [:]
        // A cursor's row is read in place; `fetchAll` copied every row first.
        let rows = try Row.fetchCursor(select, arguments: [Self.idList(ids), space ?? ""])
        while let row = try rows.next() {
            let item = ItemRow.object(fromSelected: row, columns: columns)
            if let id = item[SystemProperty.id]?.stringValue { found[id.lowercased()] = item }
        }
        return found
    }

    func pendingItemKeys(table: String, among ids: [String]) throws -> Set<ItemKey> {
        guard !ids.isEmpty else { return [] }
        let sql = #"SELECT DISTINCT "itemId", "space" FROM "MS_TableOperations" WHERE "tableName" = ? AND "itemId" "# + Self.inList
        return Set(try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [table, Self.idList(ids)]).map(Self.itemKey))
    }

    /// The key of an operation row's item (`itemId`, and `space` with "" for the account's own).
    static func itemKey(_ row: Row) -> ItemKey {
        let space: String = row["space"]
        return ItemKey(space: space.isEmpty ? nil : space, id: row["itemId"])
    }

    func pendingItemIds(table: String, space: String?, among ids: [String]) throws -> Set<String> {
        guard !ids.isEmpty else { return [] }
        let sql = #"SELECT DISTINCT "itemId" FROM "MS_TableOperations" WHERE "tableName" = ? AND "space" = ? AND "itemId" "# + Self.inList
        return Set(try String.fetchAll(db.cachedStatement(sql: sql), arguments: [table, space ?? "", Self.idList(ids)]).map { $0.lowercased() })
    }

    func operations(after id: Int64, limit: Int) throws -> [QueuedOperation] {
        try Row.fetchAll(db.cachedStatement(sql: Self.operationColumns + #" WHERE "id" > ? ORDER BY "id" LIMIT ?"#), arguments: [id, limit])
            .map(operation(from:))
    }

    func removeOperations(ids: [Int64]) throws {
        try db.cachedStatement(sql: #"DELETE FROM "MS_TableOperations" WHERE "id" "# + Self.inList).execute(arguments: [Self.idList(ids)])
        try removeErrors(operationIds: ids)
    }

    func newestOperations(table: String, itemIds: [String], space: String?) throws -> [String: QueuedOperation] {
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: Self.operationColumns + #" WHERE "tableName" = ? AND "space" = ? AND "itemId" "# + Self.inList + #" ORDER BY "id""#),
            arguments: [table, space ?? "", Self.idList(itemIds)])
        var newest: [String: QueuedOperation] = [:]
        for row in rows {
            let operation = operation(from: row)
            newest[operation.itemId.lowercased()] = operation
        }
        return newest
    }

    func removeErrors(operationIds: [Int64]) throws {
        try db.cachedStatement(sql: #"DELETE FROM "MS_TableOperationErrors" WHERE "operationId" "# + Self.inList)
            .execute(arguments: [Self.idList(operationIds)])
    }

    func markSent(operationIds: [Int64]) throws {
        try db.cachedStatement(sql: #"UPDATE "MS_TableOperations" SET "sent" = 1 WHERE "sent" = 0 AND "id" "# + Self.inList)
            .execute(arguments: [Self.idList(operationIds)])
    }

    func baseItems(in table: String, ids: [String], space: String?) throws -> [String: JSONObject] {
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: #"SELECT "itemId", "item" FROM "MS_BaseItems" WHERE "tableName" = ? AND "space" = ? AND "itemId" "# + Self.inList),
            arguments: [table, space ?? "", Self.idList(ids)])
        var found: [String: JSONObject] = [:]
        for row in rows {
            if let item = JSONText.decodeObject(row[1]) { found[(row[0] as String).lowercased()] = item }
        }
        return found
    }

    func removeBaseItems(in table: String, ids: [String], space: String?) throws {
        try db.cachedStatement(sql: #"DELETE FROM "MS_BaseItems" WHERE "tableName" = ? AND "space" = ? AND "itemId" "# + Self.inList)
            .execute(arguments: [table, space ?? "", Self.idList(ids)])
    }
}
