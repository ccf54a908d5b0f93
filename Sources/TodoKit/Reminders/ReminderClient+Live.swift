import Foundation

extension ReminderClient {
    /// The longest the store goes unread for reminders set meanwhile (on this device or another).
    static let recheck: TimeInterval = 30

    /// The store's reminders: read now, then again at the next one's time or after `recheck`.
    public static func live(_ store: TodoStore) -> ReminderClient {
        ReminderClient(watch: {
            AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        while !Task.isCancelled {
                            let now = Date(), since = store.reminders.lastLook(now: now)
                            let timed = try store.reminders.timed()
                            let due = timed.filter { $0.at > since && $0.at <= now }
                            store.reminders.markSeen(through: now)
                            if !due.isEmpty { continuation.yield(due) }
                            let next = timed.first { $0.at > now }?.at.timeIntervalSince(now) ?? recheck
                            try await Task.sleep(for: .seconds(max(0.01, min(next, recheck))))
                        }
                        continuation.finish()
                    } catch is CancellationError {
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        })
    }
}
