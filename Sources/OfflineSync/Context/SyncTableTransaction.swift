import TableProtocol

/// Many local writes of one table in one store transaction: all are kept or none (a crash or
/// an error midway leaves the store as before), and undo takes them back as one step.
public struct SyncTableTransaction {
    let table: SyncTable
    let session: any SyncStoreSession
    let step: Int64?

    /// The local item with this id, as this transaction sees it.
    public func read(id: String) throws -> JSONObject? {
        try session.item(in: table.name, id: id)
    }

    /// Local items matching a query, as this transaction sees them.
    public func read(_ query: SyncQuery) throws -> SyncQueryResult {
        var query = query
        query.table = table.name
        return try session.items(query)
    }

    /// Inserts an item (a GUID id is generated when it has none) in the table's space; answers the saved item.
    @discardableResult
    public func insert(_ item: JSONObject) throws -> JSONObject {
        var item = item
        let id = try SyncTable.checkedId(item, generate: true)
        item[SystemProperty.id] = .string(id)
        item[SharedSpace.column] = table.space.map(JSONValue.string) ?? .null
        return try table.journaled(id: id, step: step, in: session) { try table.insert(item, id: id, current: $0, in: session) }!
    }

    /// Inserts an item in another space than the table's (nil: the account's own namespace):
    /// a repeating item's next instance goes where the item is.
    @discardableResult
    public func insert(_ item: JSONObject, inSpace space: String?) throws -> JSONObject {
        try SyncTableTransaction(table: table.inSpace(space), session: session, step: step).insert(item)
    }

    /// Updates (upserts) an item, as `SyncTable.update` does.
    @discardableResult
    public func update(_ item: JSONObject) throws -> JSONObject {
        let id = try SyncTable.checkedId(item, generate: false)
        return try table.journaled(id: id, step: step, in: session) { try table.update(item, id: id, current: $0, in: session) }!
    }

    /// Deletes an item locally; the server delete is queued.
    public func delete(_ item: JSONObject) throws {
        let id = try SyncTable.checkedId(item, generate: false)
        try table.journaled(id: id, step: step, in: session) {
            try table.delete(item, id: id, current: $0, in: session)
            return nil
        }
    }
}

extension SyncTable {
    /// Runs `body`'s writes in one store transaction and one undo step; if it throws, none is kept.
    /// Like a first pull, a transaction that starts on an empty table loads it in bulk (see
    /// `SyncStoreSession.beginBulkLoad`): `todo import` of 10,000 items took 1.31 s with the
    /// search index kept row by row, 0.85 s with it built once at the end.
    public func transaction<T>(_ body: (SyncTableTransaction) throws -> T) throws -> T {
        try guardedWrite { session in
            let bulk = try session.beginBulkLoad(table: name)
            do {
                let result = try body(SyncTableTransaction(table: self, session: session, step: try context.newUndoStep(in: session)))
                if bulk { try session.endBulkLoad(table: name) }
                return result
            } catch {
                // The store rolls the load back with the rest; the store's view of it must follow.
                if bulk { try? session.endBulkLoad(table: name) }
                throw error
            }
        }
    }
}
