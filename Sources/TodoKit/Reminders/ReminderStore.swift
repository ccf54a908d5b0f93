import Foundation
import OfflineSync
import TableProtocol
import TodoModel

/// The reminders that came due: what `todo reminders` lists, each once on this device.
public struct ReminderStore: StoreFacet {
    let store: TodoStore

    /// The open items' reminders that came due after `since` and by `now`, oldest first; wall
    /// times are read in `zone`.
    public func due(after since: Date, by now: Date, zone: TimeZone = .current) throws -> [DueReminder] {
        let query = table.query.filter(Field("reminders") != nil).filter(Field("complete") == false)
        var due: [DueReminder] = []
        for item in try table.read(query).records.map(TodoItem.init) {
            for reminder in item.reminders {
                guard let time = reminder.time(on: item), let instant = time.instant(in: zone),
                      instant > since, instant <= now else { continue }
                due.append(DueReminder(item: item, reminder: reminder, at: instant))
            }
        }
        return due.sorted { ($0.at, $0.item.id) < ($1.at, $1.item.id) }
    }

    /// The soonest time an open item's reminder comes due after `now`; nil when none will.
    public func next(after now: Date, zone: TimeZone = .current) throws -> Date? {
        try due(after: now, by: .distantFuture, zone: zone).first?.at
    }

    /// How far this device has looked: what came due after it is new (a first look goes back
    /// a day before `now`).
    public func lastLook(now: Date) -> Date {
        store.remindersSeen.load() ?? now.addingTimeInterval(-ReminderLook.firstLook)
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

/// How far this device has looked at reminders, kept beside the store.
struct ReminderLook: Sendable {
    let path: String

    /// How far back a device's first look goes.
    static let firstLook: TimeInterval = 86_400

    func load() -> Date? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { SyncDateFormat.date(from: $0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    func save(_ date: Date) {
        try? Data(SyncDateFormat.string(from: date).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

extension TodoStore {
    /// The reminders that came due.
    public var reminders: ReminderStore { ReminderStore(store: self) }
}
