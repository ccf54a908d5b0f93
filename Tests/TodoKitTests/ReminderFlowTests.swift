import Foundation
import OfflineSync
import Testing
import TodoKit
import TodoKitTestSupport
import TodoModel

/// A reminder that comes due while `todo` is open shows on the status bar at once, and its item
/// is marked on the list until it is opened.
@Suite struct ReminderFlowTests {
    /// The wall time `seconds` from now in this process's zone.
    private static func wallTime(_ seconds: TimeInterval) -> DueDate {
        let parts = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute], from: Date().addingTimeInterval(seconds))
        return DueDate(year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!)!
    }

    private let dentist = TodoItem(id: "d", text: "Call the dentist", due: DueDate("2026-12-01T10:00"), reminders: [.before(minutes: 60)])

    private func cameDue(_ app: inout ListFixture) {
        app.items.append(dentist)
        app.storeChanged()
        app.send(.reminders(.cameDue([DueReminder(item: dentist, reminder: .before(minutes: 60), at: Date())])))
    }

    @Test func aReminderThatComesDueShowsOnTheStatusBarWithItsItem() {
        var app = ListFixture(["buy milk"])
        cameDue(&app)
        #expect(app.state.status.message == "Reminder: Call the dentist, due 2026-12-01T10:00")
    }

    @Test func itsItemIsMarkedUntilItIsOpened() {
        var app = ListFixture([])
        cameDue(&app)
        #expect(app.state.remindersState.marked == ["d"])
        app.press(.enter)
        #expect(app.state.editor != nil)
        #expect(app.state.remindersState.marked.isEmpty)
    }

    @Test @MainActor func aReminderAlreadyDueWhenTheAppOpensShowsAtOnce() async throws {
        let outside = InMemoryEnvironment()
        outside.pulled(TodoItem(id: "w", text: "Water the plants", reminders: [.at(Self.wallTime(-3_600))]))
        let app = AppRuntime.started(outside, server: nil)
        try await eventually("the reminder") { app.state.status.message == "Reminder: Water the plants" }
        #expect(app.state.remindersState.marked == ["w"])
    }

    @Test func theStoresWatchGivesWhatIsDueAndMarksItSeenOnTheDevice() async throws {
        let store = try makeService()
        try await store.items.add(TodoItem(id: "p", text: "Pay rent", reminders: [.at(Self.wallTime(-600))]))
        var watched = ReminderClient.live(store).watch().makeAsyncIterator()
        let due = try #require(try await watched.next())
        #expect(due.map(\.item.text) == ["Pay rent"])
        #expect(try store.reminders.due(after: store.reminders.lastLook(now: Date()), by: Date()).isEmpty)
    }
}
