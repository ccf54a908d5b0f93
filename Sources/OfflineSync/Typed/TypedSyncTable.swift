import Foundation
import TableProtocol

/// One synced table read and written as values of a `SyncRecord` type. Each write is the
/// dictionary form's (the same queue, collapse rules, undo step and live push); reads decode.
/// `untyped` gives the dictionary form for anything dynamic.
public struct TypedSyncTable<Record: SyncRecord>: Sendable {
    /// The same table, read and written as `JSONObject`s.
    public let untyped: SyncTable

    /// The table of `Record` in `context`.
    public init(context: SyncContext) { untyped = context.table(Record.tableName) }

    private init(untyped: SyncTable) { self.untyped = untyped }

    /// The table in a shared space (nil: the account's own namespace): inserts go there, pulls
    /// and purges read only it; reads see every space (`SyncTable.space`).
    public func inSpace(_ space: String?) -> TypedSyncTable { TypedSyncTable(untyped: untyped.inSpace(space)) }

    /// Inserts a record (a new GUID when its id is empty); answers it as saved.
    @discardableResult
    public func insert(_ record: Record) async throws -> Synced<Record> {
        var item = try RecordCoding.item(record)
        if record.id.isEmpty { item[SystemProperty.id] = nil }
        return try RecordCoding.synced(try await untyped.insert(item))
    }

    /// Inserts records in one store transaction and one undo step, as `insert(_:)` would one by
    /// one (see `SyncTableTransaction.insert(contentsOf:)`); answers them as saved.
    @discardableResult
    public func insert(contentsOf records: [Record]) throws -> [Synced<Record>] {
        let items = try records.map { record in
            var item = try RecordCoding.item(record)
            if record.id.isEmpty { item[SystemProperty.id] = nil }
            return item
        }
        return try untyped.transaction { try $0.insert(contentsOf: items) }.map(RecordCoding.synced)
    }

    /// Saves a record over the stored one: its properties replace the stored ones (a nil optional
    /// clears one); properties the type does not know are kept, as are system properties.
    @discardableResult
    public func update(_ record: Record) async throws -> Synced<Record> {
        try RecordCoding.synced(try await untyped.update(try RecordCoding.item(record)))
    }

    /// Deletes the item with the record's id; the server delete is queued.
    public func delete(_ record: Record) async throws { try await delete(id: record.id) }

    /// Deletes the item with this id; the server delete is queued.
    public func delete(id: String) async throws {
        try await untyped.delete([SystemProperty.id.rawValue: .string(id)])
    }

    /// The stored record with this id (in this value's space when that holds it; see `SyncTable.read(id:)`).
    public func read(id: String) throws -> Synced<Record>? {
        try untyped.read(id: id).map { try RecordCoding.synced($0) }
    }

    /// The stored record with this id in `space` (nil: the account's own namespace).
    public func read(id: String, space: String?) throws -> Synced<Record>? {
        try untyped.read(id: id, space: space).map { try RecordCoding.synced($0) }
    }

    /// Every stored record with this id, one per space holding it (the account's own first).
    public func rows(id: String) throws -> [Synced<Record>] {
        try untyped.rows(id: id).map { try RecordCoding.synced($0) }
    }

    /// The stored records a query matches, in its order (and its total count when it asked for one).
    public func read(_ query: SyncQuery) throws -> (records: [Synced<Record>], totalCount: Int?) {
        let result = try untyped.read(query)
        return (try result.items.map { try RecordCoding.synced($0) }, result.totalCount)
    }

    /// Every stored record a query matches, in its order, a few hundred at a time from one
    /// snapshot, with the lowercased ids among them that have a change still to send; see
    /// `SyncTable.forEachChunk`.
    public func forEachChunk(_ query: SyncQuery, _ body: (_ records: [Synced<Record>], _ pending: Set<ItemKey>) throws -> Void) throws {
        try untyped.forEachChunk(query) { items, pending in try body(try items.map { try RecordCoding.synced($0) }, pending) }
    }

    /// A query on this table, to refine with `filter`, `order(by:)`, `limit` and the rest.
    public var query: SyncQuery { untyped.query }

    /// Pulls server rows into the store (pushing this table's changes first); see `SyncTable.pull`.
    public func pull(_ query: SyncQuery? = nil, queryId: String? = nil, progress: (@Sendable (PullProgress) -> Void)? = nil) async throws {
        try await untyped.pull(query, queryId: queryId, progress: progress)
    }

    /// Removes matching local rows; refused while the table has queued changes.
    public func purge(_ query: SyncQuery? = nil, queryId: String? = nil) async throws {
        try await untyped.purge(query, queryId: queryId)
    }
}

extension SyncContext {
    /// Local (and sync) access to the table of a `SyncRecord` type.
    public func table<Record: SyncRecord>(_ type: Record.Type) -> TypedSyncTable<Record> {
        TypedSyncTable(context: self)
    }
}

extension TypedSyncTable {
    /// A live query: the records `query` matches now, then again after every committed change to
    /// the table (a local write, a pull, a merge, an undo, a purge). Changes committed together
    /// yield once; a consumer slower than the changes gets the newest result, never a backlog.
    /// Ends when the consuming task is cancelled; throws if a read fails.
    public func observe(_ query: SyncQuery? = nil) -> AsyncThrowingStream<[Synced<Record>], any Error> {
        let table = self
        return untyped.observeResults(query) { try table.read($0).records }
    }
}

extension SyncTable {
    /// A live query of items; see `TypedSyncTable.observe(_:)`.
    public func observe(_ query: SyncQuery? = nil) -> AsyncThrowingStream<SyncQueryResult, any Error> {
        let table = self
        return observeResults(query) { try table.read($0) }
    }

    /// A live read of your own: `read` (several queries, a summary) now and after every commit
    /// that changed the table, the newest result only; as `observe(_:)` otherwise.
    public func observe<Result: Sendable>(reading read: @escaping @Sendable () throws -> Result) -> AsyncThrowingStream<Result, any Error> {
        context.observe(tables: [name], read: read)
    }

    /// Reads `query` now and after every commit that changed the table, newest result first in line.
    func observeResults<Result: Sendable>(_ query: SyncQuery?, read: @escaping @Sendable (SyncQuery) throws -> Result) -> AsyncThrowingStream<Result, any Error> {
        var query = query ?? self.query
        query.table = name
        let query_ = query
        return context.observe(tables: [name]) { try read(query_) }
    }
}

extension SyncContext {
    /// `read` now and after every commit that changed one of `tables`, the newest result first in line.
    func observe<Result: Sendable>(tables: [String], read: @escaping @Sendable () throws -> Result) -> AsyncThrowingStream<Result, any Error> {
        // Subscribed before the first read, so a commit in between is read again rather than missed.
        let commits = dataSource.commits(changing: tables)
        let (results, continuation) = AsyncThrowingStream.makeStream(of: Result.self, bufferingPolicy: .bufferingNewest(1))
        let thread = BlockingReadThread()
        let reader = Task {
            do {
                continuation.yield(try await thread.run(.awaited, read))
                for await _ in commits {
                    if Task.isCancelled { break }
                    continuation.yield(try await thread.run(.refresh, read))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in reader.cancel() }
        return results
    }
}
