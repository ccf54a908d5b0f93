import Foundation
import Synchronization

/// Live mode of a sync context: listens to the change feeds of some tables (through the server's
/// combined feed when it has one: every table of the account's own namespace and its shared
/// spaces over one connection; else one feed per table) and pulls when they announce a change, pushes local changes by themselves at once (at most one push per 300 ms), and
/// reconnects with backoff. Against a server without feeds it pulls on a timer instead.
///
/// Pulls and pushes go through the context's serial work queue like manual ones, so conflicts
/// reach the same delegate and a manual sync never runs alongside an automatic one.
public final class LiveSync: Sendable {
    /// Timings of live mode.
    public struct Options: Sendable {
        /// The least time between automatic pushes: a change made sooner after the last one waits
        /// for the window to end, with every other change made meanwhile.
        public var pushDelay: TimeInterval
        /// Waits between reconnection attempts.
        public var backoff: ReconnectBackoff
        /// Seconds between pulls when the server has no change feed.
        public var pollInterval: TimeInterval
        /// Seconds without a byte (heartbeats included) after which a feed counts as dead.
        public var silenceTimeout: TimeInterval

        /// Default timings: pushes at most every 300 ms, reconnect within 1–30 s, poll every 30 s.
        public init(pushDelay: TimeInterval = 0.3, backoff: ReconnectBackoff = ReconnectBackoff(),
                    pollInterval: TimeInterval = 30, silenceTimeout: TimeInterval = 45) {
            self.pushDelay = pushDelay
            self.backoff = backoff
            self.pollInterval = pollInterval
            self.silenceTimeout = silenceTimeout
        }
    }

    /// The context synced.
    public let context: SyncContext
    /// The tables whose feeds are listened to.
    public let tables: [String]
    private let options: Options
    private let onState: @Sendable (LiveSyncState) -> Void
    private let onSync: @Sendable (LiveSyncActivity, SyncError?) -> Void
    private let onChange: @Sendable (FeedChange) -> Void
    private let pullJob: CoalescedJob
    private let pushJob: CoalescedJob
    private let inner = Mutex(Inner())
    /// Set once stopped; a pull or push finishing later reports nothing.
    private let stopFlag = StopFlag()

    private struct Inner {
        var listeners: [Task<Void, Never>] = []
        var pushTimer: Task<Void, Never>?
        var lastPushStart: ContinuousClock.Instant?
        var observer: UUID?
        var tableStates: [String: LiveSyncState] = [:]
        /// The feeds listened to (a table's name, or `combinedFeed`); states are reported over them.
        var feeds: [String] = []
        var reported: LiveSyncState?
    }

    /// Live mode for `tables` of `context`. `pull` is the app's incremental pull (by default each
    /// table's pull with query id `live-<table>`, of the account's own namespace: an app with
    /// shared spaces passes a pull of its spaces too); `push` defaults to the context's push.
    /// `onState`, `onSync` and `onChange` (each change a feed announced, before its pull) are
    /// called on background tasks.
    public init(context: SyncContext, tables: [String], options: Options = Options(),
                pull: (@Sendable () async throws -> Void)? = nil, push: (@Sendable () async throws -> Void)? = nil,
                onState: @escaping @Sendable (LiveSyncState) -> Void = { _ in },
                onSync: @escaping @Sendable (LiveSyncActivity, SyncError?) -> Void = { _, _ in },
                onChange: @escaping @Sendable (FeedChange) -> Void = { _ in }) {
        self.context = context
        self.tables = tables
        self.options = options
        self.onState = onState
        self.onSync = onSync
        self.onChange = onChange
        let pull = pull ?? { for table in tables { try await context.table(table).pull(queryId: "live-\(table)") } }
        let push = push ?? { try await context.push() }
        let stopFlag = self.stopFlag
        let report: @Sendable (LiveSyncActivity, SyncError?) -> Void = { activity, error in
            if !stopFlag.isSet { onSync(activity, error) }
        }
        // A pull that failed on the network or a server error is tried again with backoff, so a
        // change announced during a hiccup still arrives; one stopped by the person (a conflict
        // cancelled) is not, or the dialog would come back by itself.
        let backoff = options.backoff
        pullJob = CoalescedJob(retryDelay: { backoff.delay(afterFailures: $0, random: Double.random(in: 0...1)) }) {
            do {
                try await pull()
                report(.pulled, nil)
                return .done
            } catch {
                let error = SyncError.wrap(error)
                report(.pulled, error)
                return error.code == .pushAbortedNetwork || (error.statusCode ?? 0) >= 500 ? .retry : .done
            }
        }
        // A failed push waits for the next local change or (re)connect: its changes stay queued.
        pushJob = CoalescedJob {
            do {
                try await push()
                report(.pushed, nil)
            } catch {
                report(.pushed, SyncError.wrap(error))
            }
            return .done
        }
    }

    /// Opens the feeds, and pushes local changes as they are made from now on, until `stop()`.
    public func start() {
        guard let client = context.client, inner.withLock({ $0.observer == nil }), !stopFlag.isSet else { return }
        let observer = context.observeLocalChanges { [weak self] in self?.schedulePush() }
        let opening = Task { [weak self] in _ = await self?.openFeeds(client) }
        inner.withLock { state in
            state.observer = observer
            state.listeners = [opening]
        }
        if context.pendingOperationsCount > 0 { schedulePush() }
    }

    /// The key of the combined feed among the feeds' states.
    private static let combinedFeed = "*"

    /// Asks which feeds the server has (until it answers), then listens to them until stopped.
    private func openFeeds(_ client: SyncClient) async {
        var failures = 0
        var capabilities: ServerCapabilities?
        while capabilities == nil, !Task.isCancelled {
            do {
                capabilities = try await client.capabilities()
            } catch {
                failures += 1
                await countDown(options.backoff.delay(afterFailures: failures, random: Double.random(in: 0...1)), table: Self.combinedFeed,
                                reason: "\(SyncError.wrap(error).message)")
            }
        }
        guard let capabilities, !Task.isCancelled else { return }
        let silence = options.silenceTimeout
        let feeds: [(key: String, connection: ChangeFeedConnection)] = if let path = capabilities.combinedFeedPath {
            [(Self.combinedFeed, ChangeFeedConnection(client: client, path: path, silenceTimeout: silence))]
        } else {
            tables.map { ($0, ChangeFeedConnection(client: client, table: $0, silenceTimeout: silence)) }
        }
        inner.withLock { state in
            state.feeds = feeds.map(\.key)
            state.tableStates = [:]
        }
        await withTaskGroup(of: Void.self) { group in
            for feed in feeds { group.addTask { [weak self] in await self?.listen(to: feed.connection, key: feed.key) } }
        }
    }

    /// Closes the feeds and stops automatic pushes (a pull or push already running finishes).
    public func stop() {
        stopFlag.set()
        let (listeners, timer, observer) = inner.withLock { state in
            defer { state.listeners = []; state.pushTimer = nil }
            return (state.listeners, state.pushTimer, state.observer)
        }
        listeners.forEach { $0.cancel() }
        timer?.cancel()
        pullJob.cancel()
        pushJob.cancel()
        if let observer { context.removeLocalChangeObserver(observer) }
        onState(.stopped)
    }

    // MARK: Pushing

    /// Pushes at once when no push started in the last `pushDelay` seconds (a lone edit leaves
    /// in milliseconds); otherwise once at the end of that window, so a burst of edits goes in one push.
    private func schedulePush() {
        let delay = options.pushDelay, job = pushJob
        let now = ContinuousClock.now
        inner.withLock { state in
            guard !stopFlag.isSet, state.pushTimer == nil else { return }  // a scheduled push will take this change too
            let windowEnd = state.lastPushStart.map { $0 + .seconds(delay) } ?? now
            if windowEnd <= now {
                state.lastPushStart = now
                job.request()
                return
            }
            state.pushTimer = Task { [weak self] in
                try? await Task.sleep(until: windowEnd)
                guard let self, !Task.isCancelled else { return }
                self.inner.withLock { state in
                    state.pushTimer = nil
                    state.lastPushStart = .now
                }
                job.request()
            }
        }
    }

    // MARK: Listening

    /// One feed (a table's, or the combined one), reconnected until stopped; polling if the
    /// server has none.
    private func listen(to connection: ChangeFeedConnection, key table: String) async {
        let progress = Mutex<(lastEventId: String?, failures: Int)>((nil, 0))
        let tables = self.tables
        while !Task.isCancelled {
            report(.connecting, table: table)
            let reason: String
            do {
                try await connection.listen(lastEventId: progress.withLock { $0.lastEventId }) { [weak self] in
                    progress.withLock { $0.failures = 0 }
                    self?.report(.live, table: table)
                    // Catches up on whatever changed while the feed was closed (or before it opened).
                    self?.pullJob.request()
                } onEvent: { [weak self] event in
                    if let id = event.id, !id.isEmpty { progress.withLock { $0.lastEventId = id } }
                    if table == Self.combinedFeed {
                        // The combined feed tells of every table of the account: only ours call for
                        // a pull, and a change of the account's spaces or roles (`event: spaces`).
                        guard let change = FeedChange(combined: event, tables: tables) else {
                            if event.event == "spaces" { self?.pullJob.request() }
                            return
                        }
                        self?.onChange(change)
                    } else if let change = FeedChange(table: table, event: event) {
                        self?.onChange(change)
                    }
                    self?.pullJob.request()
                }
                reason = "the server closed the change feed"
            } catch is CancellationError {
                return
            } catch ChangeFeedError.unavailable {
                await poll(table: table)
                return
            } catch ChangeFeedError.unauthorized {
                // Only a new token helps (the app restarts live mode after signing in).
                report(.signedOut, table: table)
                try? await Task.sleep(for: .seconds(options.backoff.maximum))
                continue
            } catch {
                reason = "\(error)"
            }
            let failures = progress.withLock { state in
                state.failures += 1
                return state.failures
            }
            await countDown(options.backoff.delay(afterFailures: failures, random: Double.random(in: 0...1)), table: table, reason: reason)
        }
    }

    /// Waits `seconds`, reporting the whole seconds left each second (4.3 s: "5" for 0.3 s, then 4, 3, 2, 1).
    private func countDown(_ seconds: TimeInterval, table: String, reason: String) async {
        let whole = max(Int(seconds.rounded(.up)), 1)
        var pause = seconds - Double(whole - 1)
        for left in stride(from: whole, to: 0, by: -1) {
            guard !Task.isCancelled else { return }
            report(.offline(retryIn: left, reason: reason), table: table)
            try? await Task.sleep(for: .seconds(max(pause, 0)))
            pause = 1
        }
    }

    /// No feed on the server: pull on a timer, as the app would without live mode.
    private func poll(table: String) async {
        let interval = options.pollInterval
        report(.polling(every: Int(interval.rounded())), table: table)
        while !Task.isCancelled {
            pullJob.request()
            try? await Task.sleep(for: .seconds(interval))
        }
    }

    // MARK: State

    /// Records one table's state and reports the whole when it changed: offline if any feed is,
    /// else connecting if any is, else polling if any is, else live.
    private func report(_ state: LiveSyncState, table: String) {
        let changed: LiveSyncState? = inner.withLock { inner in
            guard !stopFlag.isSet else { return nil }
            inner.tableStates[table] = state
            let feeds = inner.feeds.isEmpty ? [table] : inner.feeds
            let states = feeds.compactMap { inner.tableStates[$0] }
            let whole = states.first { $0 == .signedOut }
                ?? states.first { if case .offline = $0 { true } else { false } }
                ?? states.first { $0 == .connecting }
                ?? states.first { if case .polling = $0 { true } else { false } }
                ?? (states.count == feeds.count ? .live : .connecting)
            guard whole != inner.reported else { return nil }
            inner.reported = whole
            return whole
        }
        if let changed { onState(changed) }
    }
}

/// A flag set once, read from any thread.
private final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
