import OfflineSync

/// What the status bar and syncing ask of the outside: the queue's state, sync, live sync and
/// the pulls' progress.
public struct ServerSyncClient: Sendable {
    /// The queue's state for the status bar.
    public var status: @Sendable () async -> SyncSnapshot
    /// Operations waiting to be pushed (for the words of a failure).
    public var pendingCount: @Sendable () async -> Int
    /// Push then pull.
    public var sync: @Sendable () async throws -> Void
    /// Live sync while the stream is consumed: its states and what it did by itself.
    public var live: @Sendable () -> AsyncStream<LiveEvent>
    /// Every pull's pages, manual or live.
    public var pullProgress: @Sendable () -> AsyncStream<PullProgress>

    /// A client of these closures.
    public init(status: @escaping @Sendable () async -> SyncSnapshot, pendingCount: @escaping @Sendable () async -> Int,
                sync: @escaping @Sendable () async throws -> Void, live: @escaping @Sendable () -> AsyncStream<LiveEvent>,
                pullProgress: @escaping @Sendable () -> AsyncStream<PullProgress>) {
        self.status = status
        self.pendingCount = pendingCount
        self.sync = sync
        self.live = live
        self.pullProgress = pullProgress
    }
}

/// What live sync reports.
public enum LiveEvent: Sendable, Equatable {
    /// Its connection's state changed.
    case state(LiveSyncState)
    /// It pushed or pulled by itself.
    case synced(LiveSyncActivity, SyncOutcome)
}
