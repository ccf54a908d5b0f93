import Foundation
import TodoKit
import TodoModel

extension InMemoryEnvironment {
    /// The in-memory items' reminders that are due now, once, as the store's watch gives them
    /// when the app opens; the stream then stays open, as the store's does.
    public var reminderClient: ReminderClient {
        ReminderClient(watch: { [self] in
            AsyncThrowingStream { continuation in
                let now = Date()
                let due = localItems.filter { !$0.complete }.flatMap { item in
                    item.reminders.compactMap { reminder -> DueReminder? in
                        guard let at = reminder.time(on: item)?.instant(in: .current), at <= now else { return nil }
                        return DueReminder(item: item, reminder: reminder, at: at)
                    }
                }
                if !due.isEmpty { continuation.yield(due.sorted { $0.at < $1.at }) }
            }
        })
    }
}
