import Foundation
import OfflineSync
import TableProtocol
import TodoModel

/// The reminders that came due: what `todo reminders` lists, each once on this device.
public struct ReminderStore: StoreFacet {
    let store: TodoStore

    /// How far back a device's first look goes.
    static let firstLook: TimeInterval = 86_400

    /// Every reminder of the open items that has a time, soonest first; wall times are read in
    /// `zone`. One read, for a watch that wants both what is due and what comes next.
    public func timed(zone: TimeZone = .current) throws -> [DueReminder] {
        // A range, not IS NOT NULL, and in that index's order (the store's default order, by id,
        // walks every row), so SQLite reads the reminders index rather than the table.
        let query = table.query.filter(Field("reminders") > .string("")).filter(Field("complete") == false).order(by: "reminders")
        var timed: [DueReminder] = []
        for item in try table.read(query).records.map(TodoItem.init) {
            for reminder in item.reminders {
                guard let time = reminder.time(on: item), let instant = time.instant(in: zone) else { continue }
                timed.append(DueReminder(item: item, reminder: reminder, at: instant))
            }
        }
        return timed.sorted { ($0.at, $0.item.id) < ($1.at, $1.item.id) }
    }

    /// The open items' reminders that came due after `since` and by `now`, oldest first.
    public func due(after since: Date, by now: Date, zone: TimeZone = .current) throws -> [DueReminder] {
        try timed(zone: zone).filter { $0.at > since && $0.at <= now }
    }

    /// How far this device has looked: what came due after it is new (a first look goes back
    /// a day before `now`).
    public func lastLook(now: Date) -> Date {
        store.remindersSeen.load() ?? now.addingTimeInterval(-Self.firstLook)
    }

    /// Marks everything due by `date` seen on this device: a reminder comes due once per device.
    public func markSeen(through date: Date) { store.remindersSeen.save(date) }
}

/// A reminder that came due, with its item.
public struct DueReminder: Sendable, Equatable {
    public var item: TodoItem
    public var reminder: Reminder
    /// When it came due.
    public var at: Date

    /// A reminder of `item` due `at`.
    public init(item: TodoItem, reminder: Reminder, at: Date) {
        (self.item, self.reminder, self.at) = (item, reminder, at)
    }
}

extension TodoStore {
    /// The reminders that came due.
    public var reminders: ReminderStore { ReminderStore(store: self) }
}
