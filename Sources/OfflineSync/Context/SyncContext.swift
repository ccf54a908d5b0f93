import Foundation
import Synchronization
import TableProtocol

/// Tracks local changes in a persistent operation queue and pushes them; pulls and purges.
///
/// Push, pull and purge run one at a time on a serial work queue. Local writes go straight to
/// the store (its writer is serial too) and may happen during a push: they are picked up by it.
public final class SyncContext: Sendable {
    /// The server client; nil for a local-only context (push and pull fail with a network error).
    public let client: SyncClient?
    /// The local store.
    public let store: SQLiteSyncStore
    /// The store through the interface the SDK's code uses.
    var dataSource: any SyncDataSource { store }

    /// Runs `body` with every local read inside it (of any table, typed or not) on one snapshot
    /// of the store: a summary of several queries sees one state, and holds one read transaction
    /// rather than one per query. Writes inside it are not allowed to wait for it: do none.
    public func readConsistently<T>(_ body: () throws -> T) throws -> T { try store.readConsistently(body) }

    /// How many writes the local store has finished, or nil while one runs. Equal readings
    /// before a read begins and after it ends mean no write came between, so a summary the read
    /// made (an outline of many rows, say) may be kept and reused for as long as the reading
    /// stays the same: a write changes it before its commit wakes any live query. Read it before
    /// the read's snapshot begins (outside `readConsistently`): read inside, a write committed
    /// just before would be counted while the snapshot predates it.
    public var settledWrites: UInt64? { store.settledWrites }
    /// Conflict and error hooks.
    public let delegate: (any SyncContextDelegate)?
    /// Rows per pull request (≤ 0 means the default, 50).
    public let pullPageSize: Int
    /// How many local changes `undo()` can take back (0 keeps no undo journal).
    public let undoDepth: Int

    let work = SerialWorkQueue()
    /// The persistent operation queue's rules: how a local change joins it, what is on the wire.
    let operations = OperationQueueRules()
    /// Stamps of this context's own acknowledged writes, which the next pull need not download.
    let ownWrites = OwnWriteStamps()
    /// Called after every committed local change (live mode schedules its push from here).
    private let localChangeObservers = Mutex<[UUID: @Sendable () -> Void]>([:])

    /// Creates a context over a store.
    public init(client: SyncClient?, dataSource: SQLiteSyncStore, delegate: (any SyncContextDelegate)? = nil,
                pullPageSize: Int = 50, undoDepth: Int = 100) {
        self.client = client
        self.store = dataSource
        self.delegate = delegate
        self.pullPageSize = pullPageSize > 0 ? pullPageSize : 50
        self.undoDepth = max(0, undoDepth)
    }

    /// Local (and sync) access to one declared table.
    public func table(_ name: String) -> SyncTable { SyncTable(name: name, context: self) }

    /// Every queued operation, across all tables.
    public var pendingOperationsCount: Int {
        (try? dataSource.read { try $0.operationCount(table: nil) }) ?? 0
    }

    /// Queued operations of one table.
    public func pendingOperationsCount(table: String) throws -> Int {
        try dataSource.read { try $0.operationCount(table: table) }
    }

    /// Ids of items with queued operations in one table (lower-cased: ids compare case-insensitively).
    public func pendingItemIds(table: String) throws -> Set<String> {
        try dataSource.read { try $0.pendingItemIds(table: table) }
    }

    /// The items with queued operations in one table, by space and id: an id two spaces hold is
    /// pending in the one whose copy changed.
    public func pendingItemKeys(table: String) throws -> Set<ItemKey> {
        try dataSource.read { try $0.pendingItemKeys(table: table) }
    }

    /// Recorded operation errors, oldest first.
    public func operationErrors() throws -> [OperationError] {
        try dataSource.read { try $0.errors() }
    }

    /// Pushes every queued operation in order.
    public func push() async throws {
        try await work.run { try await PushRun(context: self).run() }
    }

    /// Settles a recorded operation error (atomically, on its real operation).
    public func resolve(_ error: OperationError, _ resolution: OperationErrorResolution) throws {
        try ErrorResolver(context: self).resolve(error, resolution)
    }

    // MARK: Queue changes shared by local writes

    /// Runs a local change in one store write, then tells the observers (after the commit, so a
    /// push they start sees it).
    func localWrite<T>(_ body: (any SyncStoreSession) throws -> T) throws -> T {
        let result = try dataSource.write(body)
        for observer in localChangeObservers.withLock({ Array($0.values) }) { observer() }
        return result
    }

    /// Calls `observer` after every committed local change until removed; it must only schedule work.
    func observeLocalChanges(_ observer: @escaping @Sendable () -> Void) -> UUID {
        let id = UUID()
        localChangeObservers.withLock { $0[id] = observer }
        return id
    }

    /// Stops calling an observer.
    func removeLocalChangeObserver(_ id: UUID) {
        _ = localChangeObservers.withLock { $0.removeValue(forKey: id) }
    }
}
