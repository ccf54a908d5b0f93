import Foundation
import TodoModel

/// Everything the app asks of the outside: one client per capability, and the clock.
/// `AppRuntime` calls nothing else, so a test swaps the whole outside for an in-memory one
/// (`InMemoryEnvironment` in TodoKitTestSupport, one fake per capability); `live(_:)` is the real
/// one, over OfflineSync. A new capability adds its client here, and the compiler then asks the
/// live and the in-memory environments for it.
public struct AppEnvironment: Sendable {
    /// The clock for timers (the spinner, the filter's count delay).
    public var clock: any Clock<Duration>
    /// Today where the person is, and the seconds until it ends.
    public var today: @Sendable () -> (day: DueDate, secondsLeft: Double)
    /// The list's window and count.
    public var listView: ListViewClient
    /// The lists and the sidebar's counts.
    public var lists: ListsClient
    /// Reading and writing items.
    public var items: ItemsClient
    /// Undo and redo.
    public var undo: UndoClient
    /// The conflict log, restoring from it, and the questions pushes ask.
    public var conflicts: ConflictsClient
    /// The server: the queue's state, syncing, live sync and pull progress.
    public var sync: ServerSyncClient
    /// Signing in.
    public var signIn: SignInClient
    /// Sharing lists.
    public var sharing: SharingClient
    /// Exporting every item to a file.
    public var export: ExportClient
    /// Reminders coming due.
    public var reminders: ReminderClient

    /// An environment of these clients.
    public init(clock: any Clock<Duration> = ContinuousClock(),
                today: @escaping @Sendable () -> (day: DueDate, secondsLeft: Double) = AppEnvironment.localToday,
                listView: ListViewClient, lists: ListsClient, items: ItemsClient, undo: UndoClient, conflicts: ConflictsClient,
                sync: ServerSyncClient, signIn: SignInClient, sharing: SharingClient, export: ExportClient, reminders: ReminderClient) {
        (self.clock, self.today) = (clock, today)
        (self.listView, self.lists, self.items, self.undo, self.conflicts) = (listView, lists, items, undo, conflicts)
        (self.sync, self.signIn, self.sharing, self.export, self.reminders) = (sync, signIn, sharing, export, reminders)
    }

    /// Today in the process's time zone, and the seconds until midnight there.
    public static let localToday: @Sendable () -> (day: DueDate, secondsLeft: Double) = {
        let calendar = Calendar.current, now = Date()
        let midnight = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now)) ?? now.addingTimeInterval(86_400)
        return (DueDate(day: now, calendar: calendar), midnight.timeIntervalSince(now))
    }
}
