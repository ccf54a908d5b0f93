import Foundation
import OfflineSync

/// The queue's state for the status bar.
public struct SyncSnapshot: Sendable, Equatable {
    /// Queued operations.
    public var pending: Int
    /// The items with unpushed changes, by space and id.
    public var pendingItems: Set<ItemKey>
    /// When the last full sync succeeded.
    public var lastSync: Date?
    /// Conflicts settled since the person last looked at the history.
    public var newConflicts: Int

    /// A snapshot of the queue.
    public init(pending: Int, pendingItems: Set<ItemKey>, lastSync: Date?, newConflicts: Int = 0) {
        self.pending = pending
        self.pendingItems = pendingItems
        self.lastSync = lastSync
        self.newConflicts = newConflicts
    }
}
