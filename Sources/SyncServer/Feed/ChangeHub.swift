import Foundation
import Synchronization

/// What a change-feed subscriber is handed: a change, or a beat to keep idle connections open.
enum FeedSignal: Sendable {
    case change(ChangeNotice)
    case heartbeat
}

/// This process's fan-out of committed changes to open change feeds, by table and owner.
///
/// Publishing never waits: each subscriber has a bounded buffer, and one that falls behind
/// (a slow or dead reader) is cut off rather than slowing writers or other subscribers; its
/// client reconnects with `Last-Event-ID` and is replayed what it missed.
public final class ChangeHub: Sendable {
    /// Buffered signals per subscriber before it is cut off.
    let bufferLimit: Int

    private struct Key: Hashable {
        let table: String
        let owner: String
    }

    private struct State {
        var subscribers: [Key: [Int: AsyncStream<FeedSignal>.Continuation]] = [:]
        /// Open feeds per owner, over all tables.
        var perOwner: [String: Int] = [:]
        var nextId = 0
        var closed = false
    }

    private let state = Mutex(State())

    /// Creates a hub; `bufferLimit` bounds each subscriber's backlog.
    public init(bufferLimit: Int = 1_024) {
        self.bufferLimit = bufferLimit
    }

    /// Open change feeds, over every table and owner.
    var subscriberCount: Int {
        state.withLock { $0.subscribers.values.reduce(0) { $0 + $1.count } }
    }

    /// A stream of the changes of one owner's table from now on; it ends when the subscriber falls
    /// too far behind or the hub closes. Cancel the consuming task (or drop the stream) to leave.
    /// Nil when the owner already holds `maxPerOwner` open feeds in this process.
    func subscribe(table: String, owner: String, maxPerOwner: Int = .max) -> AsyncStream<FeedSignal>? {
        let (stream, continuation) = AsyncStream.makeStream(of: FeedSignal.self, bufferingPolicy: .bufferingOldest(bufferLimit))
        let key = Key(table: table, owner: owner)
        enum Admission { case admitted(Int), closed, full }
        let admission: Admission = state.withLock { state in
            guard !state.closed else { return .closed }
            guard state.perOwner[owner, default: 0] < maxPerOwner else { return .full }
            state.nextId += 1
            state.subscribers[key, default: [:]][state.nextId] = continuation
            state.perOwner[owner, default: 0] += 1
            return .admitted(state.nextId)
        }
        switch admission {
        case .full:
            return nil
        case .closed:
            continuation.finish()
            return stream
        case .admitted(let id):
            continuation.onTermination = { [weak self] _ in self?.remove(key, id) }
            return stream
        }
    }

    /// Hands a committed change to every subscriber of its table and owner.
    public func publish(_ notice: ChangeNotice) {
        let targets = state.withLock { $0.subscribers[Key(table: notice.table, owner: notice.owner)].map { Array($0.values) } ?? [] }
        deliver(.change(notice), to: targets)
    }

    /// Sends a heartbeat to every subscriber (one timer for all of them, not one each).
    func beat() {
        let targets = state.withLock { $0.subscribers.values.flatMap(\.values) }
        deliver(.heartbeat, to: targets)
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
            return state.subscribers.values.flatMap(\.values)
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

    private func remove(_ key: Key, _ id: Int) {
        state.withLock { state in
            guard state.subscribers[key]?.removeValue(forKey: id) != nil else { return }
            if state.subscribers[key]?.isEmpty == true { state.subscribers[key] = nil }
            let left = (state.perOwner[key.owner] ?? 1) - 1
            state.perOwner[key.owner] = left > 0 ? left : nil
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
