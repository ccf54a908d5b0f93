import Foundation
import TableProtocol

/// One table of a sync context: local reads and writes (queued for push), pull and purge.
public struct SyncTable: Sendable {
    /// The table's name.
    public let name: String
    /// The context it belongs to.
    public let context: SyncContext
    /// The shared space this value of the table inserts, pulls and purges in (nil: the account's
    /// own namespace). Reads see every space; updates and deletes go to the row's own. A row is
    /// keyed by (space, id): two namespaces may hold one id, and the store keeps both.
    public let space: String?

    init(name: String, context: SyncContext, space: String? = nil) {
        self.name = name
        self.context = context
        self.space = space
    }

    /// The table in a shared space (nil: the account's own namespace): see `space`.
    public func inSpace(_ space: String?) -> SyncTable { SyncTable(name: name, context: context, space: space) }

    private var store: any SyncDataSource { context.dataSource }

    // MARK: Local writes (each commits the row and its queue change together)

    /// Inserts an item (a GUID id is generated when it has none); answers the saved item.
    @discardableResult
    public func insert(_ item: JSONObject) async throws -> JSONObject {
        let (id, item) = try stampedForInsert(item)
        return try journaledWrite(id: id, item: item) { session, current in try insert(item, id: id, current: current, in: session) }!
    }

    /// Updates (upserts) an item; system properties it lacks are kept from the stored row. The
    /// row is the item's space's (its space column, as read from the store), else this value's,
    /// else the only row with its id.
    @discardableResult
    public func update(_ item: JSONObject) async throws -> JSONObject {
        let id = try Self.checkedId(item, generate: false)
        return try journaledWrite(id: id, item: item) { session, current in try update(item, id: id, current: current, in: session) }!
    }

    /// Deletes an item locally (found as `update` finds it); the server delete is queued.
    public func delete(_ item: JSONObject) async throws {
        let id = try Self.checkedId(item, generate: false)
        try journaledWrite(id: id, item: item) { session, current in
            try delete(item, id: id, current: current, in: session)
            return nil
        }
    }

    // Local writes inside a store write, shared by the calls above and by restores.

    func insert(_ item: JSONObject, id: String, space: String?, in session: any SyncStoreSession) throws -> JSONObject {
        var item = item
        item[SharedSpace.column] = space.map(JSONValue.string) ?? .null
        return try insert(item, id: id, current: try session.item(in: name, id: id, space: space), in: session)
    }

    func update(_ item: JSONObject, id: String, space: String?, in session: any SyncStoreSession) throws -> JSONObject {
        var item = item
        item[SharedSpace.column] = space.map(JSONValue.string) ?? .null
        return try update(item, id: id, current: try session.item(in: name, id: id, space: space), in: session)
    }

    func delete(_ item: JSONObject, id: String, space: String?, in session: any SyncStoreSession) throws {
        var item = item
        item[SharedSpace.column] = space.map(JSONValue.string) ?? .null
        try delete(item, id: id, current: try session.item(in: name, id: id, space: space), in: session)
    }

    /// The space of the row an item names: its own space column when it has one (an item read
    /// from the store), else this value's space when that holds the id or nothing does, else
    /// the one space holding it. An id held by several spaces, none of them this value's, is
    /// refused as ambiguous rather than one of them picked.
    func space(of item: JSONObject, id: String, in session: any SyncStoreSession) throws -> String? {
        if let named = item[SharedSpace.column] { return named.stringValue }
        if try session.item(in: name, id: id, space: space) != nil { return space }
        let holders = try session.items(in: name, id: id).map(SharedSpace.of)
        guard holders.count > 1 else { return holders.first ?? space }
        throw SyncError(.invalidParameter, "The id '\(id)' names items in \(holders.count) spaces: say which (the item's \(SharedSpace.column))")
    }

    // The same, given the stored item (`current`) the caller already read.

    func insert(_ item: JSONObject, id: String, current: JSONObject?, in session: any SyncStoreSession) throws -> JSONObject {
        guard current == nil else { throw Self.alreadyExists(id) }
        let pending = try session.newestOperation(table: name, itemId: id, space: SharedSpace.of(item))
        return try insert(item, id: id, pending: pending, in: session)
    }

    /// An insert of an item the caller found absent, given its newest queued operation (a local
    /// delete not pushed yet may have left one).
    func insert(_ item: JSONObject, id: String, pending: QueuedOperation?, in session: any SyncStoreSession) throws -> JSONObject {
        try context.operations.recordChange(.insert, table: name, itemId: id, space: SharedSpace.of(item), snapshot: nil, current: nil,
                                            pending: pending, in: session)
        var item = item
        item[SystemProperty.updatedBy] = .null  // nobody on the server wrote it yet
        return try session.write(item, over: nil, in: name)
    }

    func update(_ item: JSONObject, id: String, current: JSONObject?, in session: any SyncStoreSession) throws -> JSONObject {
        var merged = current ?? JSONObject()
        // An update never moves a row to another space (a new item there and a delete here do).
        for (key, value) in item where key != SharedSpace.column || current == nil {
            merged[merged.keys.first { $0.lowercased() == key.lowercased() } ?? key] = value
        }
        if current == nil, merged[SharedSpace.column] == nil { merged[SharedSpace.column] = space.map(JSONValue.string) ?? .null }
        // Nobody on the server wrote this version yet: the next push's answer says who did.
        merged[SystemProperty.updatedBy] = .null
        try context.operations.recordChange(.update, table: name, itemId: id, space: SharedSpace.of(merged), snapshot: nil, current: current, in: session)
        return try session.write(merged, over: current, in: name)
    }

    func delete(_ item: JSONObject, id: String, current: JSONObject?, in session: any SyncStoreSession) throws {
        var snapshot = current ?? item
        if current == nil, snapshot[SharedSpace.column] == nil { snapshot[SharedSpace.column] = space.map(JSONValue.string) ?? .null }
        let space = SharedSpace.of(snapshot)
        try context.operations.recordChange(.delete, table: name, itemId: id, space: space, snapshot: snapshot, current: current, in: session)
        try session.deleteItems(ids: [id], in: name, space: space)
    }

    // MARK: Local reads

    /// The local item with this id: in this value's space when that holds it, else the first
    /// of the rows with the id (the account's own namespace first). `read(id:space:)` names the
    /// space; `rows(id:)` answers every row.
    public func read(id: String) throws -> JSONObject? {
        try guarded {
            try store.read { session in
                try session.item(in: name, id: id, space: space) ?? session.items(in: name, id: id).first
            }
        }
    }

    /// The local item with this id in `space` (nil: the account's own namespace).
    public func read(id: String, space: String?) throws -> JSONObject? {
        try guarded { try store.read { try $0.item(in: name, id: id, space: space) } }
    }

    /// Every local item with this id, one per space holding it (the account's own first).
    public func rows(id: String) throws -> [JSONObject] {
        try guarded { try store.read { try $0.items(in: name, id: id) } }
    }

    /// Local items matching a query (run in SQLite).
    public func read(_ query: SyncQuery) throws -> SyncQueryResult {
        var query = query
        query.table = name
        return try guarded { try store.read { try $0.items(query) } }
    }

    /// The values of the fields `query` selects (`SyncQuery.select`), one array per matching
    /// local item in the query's order, each in the order the fields were named (null for a
    /// field the table lacks): a narrow read of many rows that makes no item of each. The
    /// query's count is not read.
    public func values(_ query: SyncQuery) throws -> [[JSONValue]] {
        var query = query
        query.table = name
        return try guarded { try store.read { try $0.values(query) } }
    }

    /// Every local item a query matches, in its order, handed to `body` a few hundred at a time
    /// from one snapshot: a result of any size in bounded memory, where `read(_:)` holds it all
    /// (`todo list --json` of a million items). `pending` holds the keys of the chunk's items that
    /// have a local change still to send. The query's count is not read.
    public func forEachChunk(_ query: SyncQuery, _ body: (_ items: [JSONObject], _ pending: Set<ItemKey>) throws -> Void) throws {
        var query = query
        query.table = name
        try guarded { try store.read { try $0.forEachChunk(query, size: Self.chunkSize, body) } }
    }

    /// Items per `forEachChunk` call: one pending-ids lookup each, small next to the rows.
    static let chunkSize = 512

    /// How many local items match a query for each value of `column` (`.null` for none): one
    /// `GROUP BY` instead of a count per value. The query's order, limit and offset are ignored.
    public func counts(_ query: SyncQuery, groupedBy column: String) throws -> [JSONValue: Int] {
        var query = query
        query.table = name
        return try guarded { try store.read { try $0.counts(query, groupedBy: column) } }
    }

    /// A query on this table.
    public var query: SyncQuery { SyncQuery(table: name) }

    // MARK: Sync

    /// Pulls server rows into the store (pushing this table's changes first). With a query id,
    /// only changes since the last pull of that query are fetched (per space: one query id
    /// serves every space, each with its own token).
    /// `progress` is told after each page how many rows came and, when the server counts them
    /// (the first page asks), how many the pull will bring.
    public func pull(_ query: SyncQuery? = nil, queryId: String? = nil,
                     progress: (@Sendable (PullProgress) -> Void)? = nil) async throws {
        var query = query ?? self.query
        query.table = name
        // Checked and balanced once: every page's filter wraps this one.
        let run = PullRun(context: context, query: try query.checked(), queryId: queryId, space: space, progress: progress)
        try await context.work.run { try await run.run() }
    }

    /// Removes matching local rows (of this value's space only); refused while the table has
    /// queued changes. With a query id the query's delta token is reset too.
    public func purge(_ query: SyncQuery? = nil, queryId: String? = nil) async throws {
        var scoped = (query ?? self.query).filter(Field(SharedSpace.column) == (space.map(QueryValue.string) ?? nil))
        scoped.table = name
        let space = self.space
        let (context, query) = (self.context, scoped)
        try await context.work.run {
            try context.dataSource.write { session in
                guard try session.operationCount(table: query.table) == 0 else {
                    throw SyncError(.purgeAbortedPendingChanges, "Purge refused: the table '\(query.table)' has changes waiting to be pushed")
                }
                try session.deleteItems(matching: query)
                if let queryId { try session.setDeltaToken(nil, table: query.table, queryId: SharedSpace.tokenKey(queryId, space: space)) }
            }
            // Rows at those stamps may be gone now: the next pull must download them.
            _ = context.ownWrites.take(table: query.table, space: space)
        }
    }

    /// Removes the table's rows, queued operations, errors and delta tokens, pending or not.
    public func forcePurge() async throws {
        let (context, name) = (self.context, self.name)
        try await context.work.run {
            guard context.operations.nothingInFlight else {
                throw SyncError.invalid("Force purge refused: an operation is being pushed")
            }
            try context.dataSource.write { session in
                try session.removeOperations(table: name)
                try session.removeDeltaTokens(table: name)
                try session.removeJournalEntries(table: name)
                try session.deleteItems(matching: SyncQuery(table: name))
            }
            context.ownWrites.forget(table: name)
        }
    }

    // MARK: Writes inside the store

    /// One local write of one item, its own undo step, recorded in the same transaction.
    @discardableResult
    private func journaledWrite(id: String, item: JSONObject, _ write: (any SyncStoreSession, _ current: JSONObject?) throws -> JSONObject?) throws -> JSONObject? {
        try guarded {
            try context.localWrite { session in
                let space = try space(of: item, id: id, in: session)
                return try journaled(id: id, space: space, step: try context.newUndoStep(in: session), in: session) { try write(session, $0) }
            }
        }
    }

    /// Runs one item's write inside a store write and journals it as part of `step`. `write` is
    /// given the stored item and answers it as written (nil when deleted): each is read once.
    @discardableResult
    func journaled(id: String, space: String?, step: Int64?, in session: any SyncStoreSession,
                   _ write: (_ current: JSONObject?) throws -> JSONObject?) throws -> JSONObject? {
        let before = try session.item(in: name, id: id, space: space)
        let after = try write(before)
        try context.journal(table: name, itemId: id, space: space, before: before, after: after, step: step, in: session)
        return after
    }

    func guardedWrite<T>(_ body: (any SyncStoreSession) throws -> T) throws -> T {
        try guarded { try context.localWrite(body) }
    }

    private func guarded<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw SyncError.wrap(error) }
    }

    /// The item as an insert stores it: its id (a new GUID when it has none) and this table's space.
    func stampedForInsert(_ item: JSONObject) throws -> (id: String, item: JSONObject) {
        var item = item
        let id = try Self.checkedId(item, generate: true)
        item[SystemProperty.id] = .string(id)
        item[SharedSpace.column] = space.map(JSONValue.string) ?? .null
        return (id, item)
    }

    static func alreadyExists(_ id: String) -> SyncError {
        SyncError.invalid("Insert failed: an item with id '\(id)' already exists")
    }

    static func checkedId(_ item: JSONObject, generate: Bool) throws -> String {
        switch item[SystemProperty.id] {
        case nil, .null?:
            guard generate else { throw SyncError(.invalidParameter, "The item has no id") }
            return UUID().uuidString
        case .string(let id)?:
            if id.isEmpty && generate { return UUID().uuidString }
            if let problem = ItemID.validate(id) { throw SyncError(.invalidParameter, "Invalid id: \(problem)") }
            return id
        default:
            throw SyncError(.invalidParameter, "The item's id must be a string")
        }
    }
}
