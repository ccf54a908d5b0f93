import Foundation
import ServerTestSupport
import Testing

/// `todo`'s reminders headless (#57): `--remind` repeatable, `none` clears, JSON's `reminders`.
@Suite struct ReminderCommandTests {
    private func reminders(_ home: URL) async throws -> [String] {
        let out = try await TodoCLI.run(["list", "--json"], home: home).out
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
        return try #require(rows.first?["reminders"] as? [String])
    }

    @Test func addTakesSeveralRemindersAndListJSONCarriesThem() async throws {
        let home = try TempDir.make()
        let added = try await TodoCLI.run(["add", "Call the dentist", "--due", "2026-12-01T10:00", "--remind", "-1h", "--remind", "2026-12-01 T08:00"],
                                          home: home)
        #expect(added.status == 0, "\(added.err)")
        #expect(try await reminders(home) == ["-1h", "2026-12-01T08:00"])
    }

    @Test func editRemindNoneClearsThem() async throws {
        let home = try TempDir.make()
        let id = try await TodoCLI.run(["add", "Call the dentist", "--due", "2026-12-01T10:00", "--remind", "-1d"], home: home).out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await TodoCLI.run(["edit", id, "--remind", "none"], home: home).status == 0)
        #expect(try await reminders(home).isEmpty)
    }

    @Test func aRemindThatIsNoReminderIsRefusedNamingTheFlag() async throws {
        let result = try await TodoCLI.run(["add", "x", "--remind", "soonish"], home: try TempDir.make())
        #expect(result.status != 0)
        #expect(result.err.contains("--remind"))
    }
}
