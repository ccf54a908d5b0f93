import TableProtocol

/// Many local writes of one table in one store transaction: all are kept or none (a crash or
/// an error midway leaves the store as before), and undo takes them back as one step.
public struct SyncTableTransaction {
    let table: SyncTable
    let session: any SyncStoreSession
    let step: Int64?

    /// The local item with this id, as this transaction sees it: in the table's space when
    /// that holds it, else the first row with the id (as `SyncTable.read(id:)`).
    public func read(id: String) throws -> JSONObject? {
        try session.item(in: table.name, id: id, space: table.space) ?? session.items(in: table.name, id: id).first
    }

    /// The local item with this id in `space` (nil: the account's own namespace), as this
    /// transaction sees it.
    public func read(id: String, space: String?) throws -> JSONObject? {
        try session.item(in: table.name, id: id, space: space)
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
        let (id, item) = try table.stampedForInsert(item)
        return try table.journaled(id: id, space: table.space, step: step, in: session) { try table.insert(item, id: id, current: $0, in: session) }!
    }

    /// Inserts many items in the table's space, as `insert(_:)` one at a time would, in order;
    /// answers the saved items. What the inserts must know first (that no item has the id yet,
    /// and what the queue holds for it) is read for all of them with two statements, where
    /// `todo import` of 10,000 items read two rows and the queue per item (with the app's row
    /// built without Codable; BENCHMARKS.md, "Bulk cycle against Taskwarrior"). An id already
    /// stored, or given earlier in `items`, is refused (the transaction then keeps none of its
    /// writes), or
    /// with `skippingStored` left out: an import adds what is new. Either way an id whose delete
    /// is still queued is refused, as `insert(_:)` refuses it.
    @discardableResult
    public func insert(contentsOf items: [JSONObject], skippingStored: Bool = false) throws -> [JSONObject] {
        let prepared = try items.map(table.stampedForInsert)
        let ids = prepared.map(\.id)
        let stored = try session.items(in: table.name, ids: ids, space: table.space)
        let pending = try session.newestOperations(table: table.name, itemIds: ids, space: table.space)
        var seen = Set<String>()
        return try prepared.compactMap { id, item in
            let key = id.lowercased()
            guard stored[key] == nil, seen.insert(key).inserted else {
                if skippingStored { return nil }
                throw SyncTable.alreadyExists(id)
            }
            let saved = try table.insert(item, id: id, pending: pending[key], in: session)
            try table.context.journal(table: table.name, itemId: id, space: table.space, before: nil, after: saved, step: step, in: session)
            return saved
        }
    }

    /// `insert(contentsOf:skippingStored:)` in another space than the table's (nil: the account's
    /// own namespace).
    @discardableResult
    public func insert(contentsOf items: [JSONObject], inSpace space: String?, skippingStored: Bool = false) throws -> [JSONObject] {
        try SyncTableTransaction(table: table.inSpace(space), session: session, step: step).insert(contentsOf: items, skippingStored: skippingStored)
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
        let space = try table.space(of: item, id: id, in: session)
        return try table.journaled(id: id, space: space, step: step, in: session) { try table.update(item, id: id, current: $0, in: session) }!
    }

    /// Deletes an item locally; the server delete is queued.
    public func delete(_ item: JSONObject) throws {
        let id = try SyncTable.checkedId(item, generate: false)
        let space = try table.space(of: item, id: id, in: session)
        try table.journaled(id: id, space: space, step: step, in: session) {
            try table.delete(item, id: id, current: $0, in: session)
            return nil
        }
    }
}

extension SyncTable {
    /// Runs `body`'s writes in one store transaction and one undo step; if it throws, none is kept.
    /// Like a first pull, a transaction that starts on an empty table loads it in bulk (see
    /// `SyncStoreSession.beginBulkLoad`): `todo import` was far slower with the search index
    /// kept row by row than with it built once at the end. Its other indexes are built once at
    /// the end too, inside the transaction (a pull's load spans transactions that readers see
    /// between, so it keeps them), a smaller gain (BENCHMARKS.md, "Bulk cycle against Taskwarrior").
    public func transaction<T>(_ body: (SyncTableTransaction) throws -> T) throws -> T {
        try guardedWrite { session in
            try session.withRoomForLargeWrites {
                let bulk = try session.beginBulkLoad(table: name)
                do {
                    let indexes = bulk ? try session.suspendIndexes(table: name) : []
                    let result = try body(SyncTableTransaction(table: self, session: session, step: try context.newUndoStep(in: session)))
                    try session.restoreIndexes(indexes)
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
}
