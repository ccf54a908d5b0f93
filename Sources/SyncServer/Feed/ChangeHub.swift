import Foundation
import NIOCore
import Synchronization

/// What a change-feed subscriber is handed: a change, or a beat to keep idle connections open.
enum FeedSignal: Sendable {
    /// A committed write, and its event as a table's feed sends it, written once for every
    /// subscriber (with ten thousand of them, writing it per subscriber cost a fifth of the fan-out).
    case change(ChangeNotice, tableEvent: ByteBuffer)
    case heartbeat
    /// The account joined, left or changed its role in a space the feed reads: the feed says
    /// `event: spaces` and ends, so the client pulls (its spaces and roles) at once and reconnects.
    case membershipChanged
}

/// This process's fan-out of committed changes to open change feeds: a feed of one namespace's
/// table, or of every table of several namespaces (`GET /changes`: an account's own and its
/// shared spaces over one connection).
///
/// Publishing never waits: each subscriber has a bounded buffer, and one that falls behind
/// (a slow or dead reader) is cut off rather than slowing writers or other subscribers; its
/// client reconnects with `Last-Event-ID` and is replayed what it missed.
public final class ChangeHub: Sendable {
    /// Buffered signals per subscriber before it is cut off.
    let bufferLimit: Int

    /// What a subscription listens to: one table of a namespace, or every table of it (nil).
    private struct Key: Hashable {
        let table: String?
        let owner: String
    }

    private struct Subscription {
        let keys: [Key]
        let account: String
        let continuation: AsyncStream<FeedSignal>.Continuation
        let openedAt = Date()
    }

    private struct State {
        var subscribers: [Key: [Int: AsyncStream<FeedSignal>.Continuation]] = [:]
        var subscriptions: [Int: Subscription] = [:]
        /// Open feeds per account (the one who asked), over all tables and namespaces.
        var perAccount: [String: Int] = [:]
        var nextId = 0
        var closed = false
    }

    private let state = Mutex(State())
    /// Told of every change, whoever subscribes (the push sender).
    private let observers = Mutex<[@Sendable (ChangeNotice) -> Void]>([])

    /// Creates a hub; `bufferLimit` bounds each subscriber's backlog.
    public init(bufferLimit: Int = 1_024) {
        self.bufferLimit = bufferLimit
    }

    /// Open change feeds, over every table and owner.
    var subscriberCount: Int {
        state.withLock { $0.subscriptions.count }
    }

    /// A stream of the changes of `table` (nil: every table) of each of `owners` from now on; it
    /// ends when the subscriber falls too far behind or the hub closes. Cancel the consuming task
    /// (or drop the stream) to leave. Nil when `account` already holds `maxPerAccount` open feeds
    /// in this process.
    func subscribe(table: String?, owners: [String], account: String, maxPerAccount: Int = .max) -> AsyncStream<FeedSignal>? {
        let (stream, continuation) = AsyncStream.makeStream(of: FeedSignal.self, bufferingPolicy: .bufferingOldest(bufferLimit))
        let keys = Set(owners).map { Key(table: table, owner: $0) }
        enum Admission { case admitted(Int), closed, full }
        let admission: Admission = state.withLock { state in
            guard !state.closed else { return .closed }
            guard state.perAccount[account, default: 0] < maxPerAccount else { return .full }
            state.nextId += 1
            for key in keys { state.subscribers[key, default: [:]][state.nextId] = continuation }
            state.subscriptions[state.nextId] = Subscription(keys: keys, account: account, continuation: continuation)
            state.perAccount[account, default: 0] += 1
            return .admitted(state.nextId)
        }
        switch admission {
        case .full:
            return nil
        case .closed:
            continuation.finish()
            return stream
        case .admitted(let id):
            continuation.onTermination = { [weak self] _ in self?.remove(id) }
            return stream
        }
    }

    /// Hands a committed change to every subscriber of its table and owner, and of all its owner's tables.
    public func publish(_ notice: ChangeNotice) {
        for observer in observers.withLock({ $0 }) { observer(notice) }
        let targets = state.withLock { state in
            Array((state.subscribers[Key(table: notice.table, owner: notice.owner)] ?? [:]).values)
                + Array((state.subscribers[Key(table: nil, owner: notice.owner)] ?? [:]).values)
        }
        guard !targets.isEmpty else { return }
        deliver(.change(notice, tableEvent: notice.tableFeedEvent), to: targets)
    }

    /// Calls `observer` with every change published from now on; it must not wait.
    func observe(_ observer: @escaping @Sendable (ChangeNotice) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// Sends a heartbeat to every subscriber (one timer for all of them, not one each).
    func beat() {
        let targets = state.withLock { $0.subscriptions.values.map(\.continuation) }
        deliver(.heartbeat, to: targets)
    }

    /// Ends the open feeds `account` holds that read `namespace` (its membership of a space ended
    /// or began): a feed of a space it left stops at once, and a combined feed reconnects with
    /// its spaces as they are now.
    /// `openedBefore`: only feeds opened before then (a change heard late from another process
    /// must not end a feed opened after it, which already reads the new membership).
    func endFeeds(of account: String, reading namespace: String, openedBefore: Date = .distantFuture) {
        let targets = state.withLock { state in
            state.subscriptions.values.filter { subscription in
                subscription.account == account && subscription.openedAt < openedBefore
                    && subscription.keys.contains { $0.owner == namespace || $0.owner == account }
            }.map(\.continuation)
        }
        for continuation in targets {
            continuation.yield(.membershipChanged)
            continuation.finish()
        }
    }

    /// Ends every subscription and refuses new ones (server shutdown: open feeds must not hold it up).
    public func close() {
        endSubscriptions(refusingNew: true)
    }

    /// Ends every open subscription, by default still accepting new ones (the PostgreSQL relay
    /// reconnected and may have missed changes: each client reconnects and is replayed them).
    func endSubscriptions(refusingNew: Bool = false) {
        let targets = state.withLock { state in
            if refusingNew { state.closed = true }
            return state.subscriptions.values.map(\.continuation)
        }
        for continuation in targets { continuation.finish() }
    }

    private func deliver(_ signal: FeedSignal, to targets: [AsyncStream<FeedSignal>.Continuation]) {
        for continuation in targets {
            if case .dropped = continuation.yield(signal) {
                // Behind by a whole buffer: end its stream; the client resumes from its last event id.
                continuation.finish()
            }
        }
    }

    private func remove(_ id: Int) {
        state.withLock { state in
            guard let subscription = state.subscriptions.removeValue(forKey: id) else { return }
            for key in subscription.keys {
                state.subscribers[key]?.removeValue(forKey: id)
                if state.subscribers[key]?.isEmpty == true { state.subscribers[key] = nil }
            }
            let left = (state.perAccount[subscription.account] ?? 1) - 1
            state.perAccount[subscription.account] = left > 0 ? left : nil
        }
    }

    /// Beats every `interval` seconds until the hub closes.
    func runHeartbeat(every interval: Double) async {
        while !Task.isCancelled, !state.withLock({ $0.closed }) {
            try? await Task.sleep(for: .seconds(interval))
            beat()
        }
    }
}
