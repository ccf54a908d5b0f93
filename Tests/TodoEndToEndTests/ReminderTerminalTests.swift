import Foundation
import ServerTestSupport
import Testing

/// Reminders in a real terminal (tmux), set on another device and synced through a real server
/// (#57's done-when).
@Suite struct ReminderTerminalTests {
    /// A reminder two minutes ahead shows on the open screen at its minute, its item marked, and
    /// the phone, closed meanwhile, lists it at its next look. Over 20 s: a reminder is a wall
    /// time, so this waits for the wall clock's minute (one to two of them); it waits on the screen.
    @Test func aReminderComingDueShowsOnTheOpenScreenAtItsMinuteAndAClosedDeviceListsItAfter() async throws {
        let devices = try await PhoneAndLaptop.start()
        defer { devices.stop() }
        let at = TodoCLI.wallTime(minutes: 2)
        try await devices.onPhone(["add", "Call the dentist", "--remind", at])
        try await devices.onPhone(["sync"])
        let ui = try await devices.laptop()
        defer { ui.kill() }
        try await ui.waitUntil("the item, not yet reminded") { $0.contains("[ ] Call the dentist") && !$0.contains("Reminder:") }
        try await ui.waitUntil("the reminder at \(at)", timeout: 200) { $0.contains("Reminder: Call the dentist") && $0.contains("reminder") }
        let listed = try await devices.onPhone(["reminders", "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])
        #expect(entries.compactMap { $0["text"] as? String } == ["Call the dentist"])
    }
}
