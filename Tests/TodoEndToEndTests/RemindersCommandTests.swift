import Foundation
import ServerTestSupport
import Testing

/// `todo reminders` (#57): a device that was closed lists what came due since it last looked,
/// once; `--notify` hands each to a notifier.
@Suite struct RemindersCommandTests {
    private func wallTime(minutes: Int) -> String { TodoCLI.wallTime(minutes: minutes) }

    /// A device with a reminder that came due ten minutes ago, one due before a due time half an
    /// hour away (an hour before: so, half an hour ago), and one two hours ahead.
    private func home() async throws -> URL {
        let home = try TempDir.make()
        #expect(try await TodoCLI.run(["add", "Call the dentist", "--remind", wallTime(minutes: -10)], home: home).status == 0)
        #expect(try await TodoCLI.run(["add", "Leave for the train", "--due", wallTime(minutes: 30), "--remind", "-1h"], home: home).status == 0)
        #expect(try await TodoCLI.run(["add", "Water the plants", "--remind", wallTime(minutes: 120)], home: home).status == 0)
        return home
    }

    private func dueTexts(_ home: URL) async throws -> [String] {
        let out = try await TodoCLI.run(["reminders", "--json"], home: home).out
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
        return entries.compactMap { $0["text"] as? String }
    }

    @Test func remindersListsWhatCameDueOldestFirst() async throws {
        #expect(try await dueTexts(try await home()) == ["Leave for the train", "Call the dentist"])
    }

    @Test func aReminderIsListedOncePerDevice() async throws {
        let home = try await home()
        _ = try await dueTexts(home)
        #expect(try await dueTexts(home).isEmpty)
    }

    @Test func aNotifierThatFailsKeepsTheRemindersDueAndPrintsNoUsage() async throws {
        let home = try await home()
        let failed = try await TodoCLI.run(["reminders", "--notify"], home: home, environment: ["TODO_NOTIFY_COMMAND": "exit 3"])
        #expect(failed.status != 0)
        #expect(!failed.err.contains("Usage:"))
        #expect(try await dueTexts(home).count == 2)
    }

    @Test func aCompletedItemsReminderIsNotListed() async throws {
        let home = try TempDir.make()
        let id = try await TodoCLI.run(["add", "Call the dentist", "--remind", wallTime(minutes: -10)], home: home).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await TodoCLI.run(["done", id], home: home).status == 0)
        #expect(try await dueTexts(home).isEmpty)
    }

    @Test func notifyRunsTheNotifierOncePerReminderAndMarksThemSeen() async throws {
        let home = try await home()
        let log = home.appendingPathComponent("notified.txt")
        let command = #"printf '%s|%s\n' "$1" "$2" >> ""# + log.path + #"""#
        let notified = try await TodoCLI.run(["reminders", "--notify"], home: home, environment: ["TODO_NOTIFY_COMMAND": command])
        #expect(notified.status == 0, "\(notified.err)")
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.last == "todo: reminder|Call the dentist")
        #expect(try await dueTexts(home).isEmpty)
    }
}
