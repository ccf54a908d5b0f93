import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Tells every server process on the database about committed writes: the change notices of
/// this process's commits, sent after each commit, in batches, from a connection of its own.
///
/// Why not NOTIFY inside the write's transaction: PostgreSQL serialises the commits of every
/// transaction that notifies (one lock on the notification queue, held through the commit's WAL
/// flush), so every write of every account queued behind every other's commit. With 1 ms commits
/// that capped 50 accounts at about one account's rate whatever else ran in parallel
/// (BENCHMARKS.md, "Inserts of many accounts with slow commits"). A transaction that only
/// notifies writes no WAL, so its commit holds that lock for microseconds.
///
/// A notice still goes out only after its write committed (a subscriber hears of nothing that may
/// roll back). Notices of one transaction go in one batch, in order, so a schema change still
/// reaches the other processes before the row that needed it. A notice may reach subscribers a
/// little later than before (one more round trip) and out of commit order across transactions:
/// each is only "pull now", and a pull reads every write committed before it. If this process
/// dies between a commit and its batch, that write is not announced; it reaches other devices
/// with their next pull.
final class PostgresNotifier: Sendable {
    private struct State {
        var pending: [String] = []
        var wake: CheckedContinuation<Void, Never>?
        var closed = false
        var running: Task<Void, Never>?
    }

    private let state = Mutex(State())
    private let configuration: PostgresConnection.Configuration
    private let channel: String
    private let logger: Logger

    init(configuration: PostgresConnection.Configuration, channel: String, logger: Logger) {
        self.configuration = configuration
        self.channel = channel
        self.logger = logger
    }

    /// Queues notices of a committed transaction; they go out in order with the next batch.
    func post(_ payloads: [String]) {
        guard !payloads.isEmpty else { return }
        let wake = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.closed else { return nil }
            state.pending += payloads
            if state.running == nil { state.running = Task { await self.run() } }
            defer { state.wake = nil }
            return state.wake
        }
        wake?.resume()
    }

    /// Sends what is queued, then stops.
    func close() async {
        let (running, wake) = state.withLock { state in
            state.closed = true
            defer { state.wake = nil }
            return (state.running, state.wake)
        }
        wake?.resume()
        await running?.value
    }

    private func run() async {
        var connection: PostgresConnection?
        var retryDelay = 0.25
        while let batch = await nextBatch() {
            var sent = false
            while !sent {
                do {
                    if connection == nil { connection = try await PostgresConnection.connect(configuration: configuration, id: 9_001, logger: logger) }
                    var bindings = PostgresBindings(capacity: 2)
                    bindings.append(channel)
                    bindings.append(batch)
                    // unnest yields the array in order, and the rows are notified as they come.
                    let notify = PostgresQuery(unsafeSQL: "SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS notices(payload)", binds: bindings)
                    _ = try await connection!.query(notify, logger: logger).get()
                    sent = true
                    retryDelay = 0.25
                } catch {
                    try? await connection?.close()
                    connection = nil
                    if state.withLock({ $0.closed }) {
                        logger.warning("change notices not sent at shutdown", metadata: ["notices": "\(batch.count)"])
                        break
                    }
                    logger.warning("change notices could not be sent; retrying", metadata: ["error": "\(String(reflecting: error))", "retry_s": "\(retryDelay)"])
                    try? await Task.sleep(for: .seconds(retryDelay))
                    retryDelay = min(retryDelay * 2, 5)
                }
            }
        }
        try? await connection?.close()
    }

    /// Everything queued, waiting for something when nothing is; nil once closed and drained.
    private func nextBatch() async -> [String]? {
        while true {
            let taken = state.withLock { state -> [String] in
                defer { state.pending = [] }
                return state.pending
            }
            if !taken.isEmpty { return taken }
            if state.withLock({ $0.closed && $0.pending.isEmpty }) { return nil }
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if !state.pending.isEmpty || state.closed { return true }
                    state.wake = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }
}
