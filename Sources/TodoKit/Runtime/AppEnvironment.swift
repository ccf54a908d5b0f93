import Foundation
import TodoModel

/// Everything the app asks of the outside, one client per capability (each in its capability's
/// folder, with its live implementation beside it), and the clock. `AppRuntime` calls nothing
/// else, so a test swaps the whole outside for an in-memory one (`InMemoryEnvironment` in
/// TodoKitTestSupport, one fake per capability); `live(_:)` is the real one, over OfflineSync.
public struct AppEnvironment: Sendable {
    /// The list's window and count.
    public var listView: ListViewClient
    /// The lists and the scopes' counts.
    public var lists: ListsClient
    /// Reading and writing items.
    public var items: ItemsClient
    /// Undo and redo.
    public var undo: UndoClient
    /// The conflict dialog and history.
    public var conflicts: ConflictsClient
    /// The queue, sync and live sync.
    public var sync: ServerSyncClient
    /// Signing in.
    public var signIn: SignInClient
    /// Sharing lists.
    public var sharing: SharingClient
    /// The clock for timers (the spinner, the filter's count delay).
    public var clock: any Clock<Duration>
    /// Today where the person is, and the seconds until it ends.
    public var today: @Sendable () -> (day: DueDate, secondsLeft: Double)

    /// An environment of these clients.
    public init(listView: ListViewClient, lists: ListsClient, items: ItemsClient, undo: UndoClient, conflicts: ConflictsClient,
                sync: ServerSyncClient, signIn: SignInClient, sharing: SharingClient = .unavailable,
                clock: any Clock<Duration> = ContinuousClock(),
                today: @escaping @Sendable () -> (day: DueDate, secondsLeft: Double) = AppEnvironment.localToday) {
        self.listView = listView
        self.lists = lists
        self.items = items
        self.undo = undo
        self.conflicts = conflicts
        self.sync = sync
        self.signIn = signIn
        self.sharing = sharing
        self.clock = clock
        self.today = today
    }

    /// Today in the process's time zone, and the seconds until midnight there.
    public static let localToday: @Sendable () -> (day: DueDate, secondsLeft: Double) = {
        let calendar = Calendar.current, now = Date()
        let midnight = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now)) ?? now.addingTimeInterval(86_400)
        return (DueDate(day: now, calendar: calendar), midnight.timeIntervalSince(now))
    }
}
