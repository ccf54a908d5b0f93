import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Pushes changes to subscriptions, off the write path: a committed write only marks its
/// namespace as changed (`ChangeHub`'s observer, a set insert); this service then asks the
/// database which subscriptions are owed a message, claims each, and sends.
///
/// - Bursts coalesce: a subscription gets at most one message per `gap`, carrying the newest
///   stamp, so an import of thousands of rows is a few messages.
/// - A slow or dead push service holds up only its own sends (each bounded in time, at most
///   `maximumSends` at once).
/// - A change missed while the process was down, or by a PostgreSQL relay that reconnected, is
///   found by the scan at start and every `sweepInterval`.
final class PushSender: Service, Sendable {
    let subscriptions: PushSubscriptions
    let delivery: PushDelivery
    /// Tables pushed, by their lower-cased names.
    let formats: [String: PushMessageFormat]
    let logger: Logger
    let gap: TimeInterval
    let sweepInterval: TimeInterval
    static let maximumSends = 16

    private struct State {
        var changed: Set<String> = []
        var scanAll = true
        var sending: Set<String> = []
        var stopped = false
    }

    private let state = Mutex(State())
    private let wakeup = Wakeup()

    init(subscriptions: PushSubscriptions, delivery: PushDelivery, formats: [String: PushMessageFormat], logger: Logger,
         gap: TimeInterval = 0.5, sweepInterval: TimeInterval = 60) {
        self.subscriptions = subscriptions
        self.delivery = delivery
        self.formats = Dictionary(formats.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.logger = logger
        self.gap = gap
        self.sweepInterval = sweepInterval
    }

    /// Told of every committed change this process hears of (its own, and on PostgreSQL every
    /// process's). Never waits.
    func noticed(_ notice: ChangeNotice) {
        guard formats[notice.table] != nil else { return }
        let inserted = state.withLock { $0.changed.insert(notice.owner).inserted }
        if inserted { wakeup.signal() }
    }

    func run() async throws {
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                var nextSweep = Date()
                // Stopped by a graceful shutdown, or cancelled (the server failed to start, say).
                while !state.withLock({ $0.stopped }) && !Task.isCancelled {
                    let now = Date()
                    if now >= nextSweep {
                        do { try await subscriptions.sweep(now: now) } catch { logger.warning("push: sweeping expired subscriptions failed", metadata: ["error": "\(error)"]) }
                        state.withLock { $0.scanAll = true }
                        nextSweep = now.addingTimeInterval(sweepInterval)
                    }
                    let wake = await round(group: &group, now: now)
                    await wakeup.wait(timeout: .milliseconds(Int64(max(0, min(wake, nextSweep).timeIntervalSinceNow) * 1_000) + 1))
                }
                // Shutting down: a push service that holds its reply does not hold up the exit.
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.state.withLock { $0.stopped = true }
            self.wakeup.signal()
        }
    }

    /// Claims and starts every push now due; answers when to look again for those not yet due.
    private func round(group: inout DiscardingTaskGroup, now: Date) async -> Date {
        let (namespaces, all) = state.withLock { state -> (Set<String>, Bool) in
            defer { state.changed = []; state.scanAll = false }
            return (state.changed, state.scanAll)
        }
        guard all || !namespaces.isEmpty else { return .distantFuture }
        let due: [DuePush]
        do {
            due = try await subscriptions.due(in: all ? nil : namespaces, now: now, gap: gap)
        } catch {
            logger.warning("push: reading the subscriptions owed a message failed", metadata: ["error": "\(error)"])
            state.withLock { $0.changed.formUnion(namespaces); if all { $0.scanAll = true } }
            return now.addingTimeInterval(1)
        }
        var wake = Date.distantFuture
        var later: Set<String> = []
        for push in due {
            let busy = state.withLock { state in state.sending.contains(push.subscription.id) || state.sending.count >= Self.maximumSends }
            if busy || push.notBefore > now {
                // Sent to a moment ago, backing off, or its last message still going: look again then.
                later.insert(push.namespace)
                wake = min(wake, busy ? now.addingTimeInterval(gap) : push.notBefore)
                continue
            }
            guard let format = formats[push.subscription.table] else { continue }
            do {
                guard try await subscriptions.claim(push, now: now, gap: gap) else { continue }
            } catch {
                logger.warning("push: claiming a message failed", metadata: ["error": "\(error)"])
                later.insert(push.namespace)
                wake = min(wake, now.addingTimeInterval(1))
                continue
            }
            state.withLock { _ = $0.sending.insert(push.subscription.id) }
            group.addTask {
                await self.send(push, message: format.message(push.subscription, push.namespace, push.stamp))
                self.state.withLock { _ = $0.sending.remove(push.subscription.id) }
            }
        }
        if !later.isEmpty { state.withLock { $0.changed.formUnion(later) } }
        return wake
    }

    private func send(_ push: DuePush, message: Data) async {
        let outcome = await delivery.send(message, to: push.subscription, topic: push.subscription.topic)
        do {
            switch outcome {
            case .delivered:
                if push.failures > 0 { try await subscriptions.delivered(push) }
            case .gone(let why):
                logger.info("push: subscription ended", metadata: ["subscription": "\(push.subscription.id)", "reason": "\(why)"])
                try await subscriptions.drop(push)
            case .retry(let why, let after):
                let wait = PushDelivery.backoff(failures: push.failures, requested: after)
                logger.notice("push: send failed, retrying", metadata: ["subscription": "\(push.subscription.id)", "reason": "\(why)", "retry_in": "\(Int(wait))s"])
                try await subscriptions.failed(push, retryAfter: wait)
                state.withLock { _ = $0.changed.insert(push.namespace) }
            }
        } catch {
            logger.warning("push: recording a send failed", metadata: ["error": "\(error)"])
        }
        wakeup.signal()
    }
}
