import Foundation

/// The queue's state for the status bar.
public struct SyncSnapshot: Sendable, Equatable {
    /// Queued operations.
    public var pending: Int
    /// Lower-cased ids of items with unpushed changes.
    public var pendingIds: Set<String>
    /// When the last full sync succeeded.
    public var lastSync: Date?
    /// Conflicts settled since the person last looked at the history.
    public var newConflicts: Int

    /// A snapshot of the queue.
    public init(pending: Int, pendingIds: Set<String>, lastSync: Date?, newConflicts: Int = 0) {
        self.pending = pending
        self.pendingIds = pendingIds
        self.lastSync = lastSync
        self.newConflicts = newConflicts
    }
}
