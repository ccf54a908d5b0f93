import Foundation
import ServerTestSupport
import Testing

/// Kept views headless (#58): `todo views add NAME QUERY`, `todo views` (`--json`: name, query and
/// count), `todo views rm NAME`; a view reaches a second device through a real server.
@Suite struct ViewsCommandTests {
    private func views(_ run: (status: Int32, out: String, err: String)) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [[String: Any]])
    }

    @Test func aViewKeptOnOneDeviceAppearsOnTheOtherAfterSyncWithItsCount() async throws {
        let devices = try await PhoneAndLaptop.start()
        defer { devices.stop() }
        try await devices.onPhone(["add", "Weed beds #garden due:today"])
        try await devices.onPhone(["add", "Plant bulbs #garden due:+20d"])
        try await devices.onPhone(["add", "Call plumber due:today"])
        try await devices.onPhone(["views", "add", "Garden now", "#garden due<+7d"])
        try await devices.onPhone(["sync"])
        #expect(try await devices.onLaptop(["sync"]).status == 0)
        let kept = try views(try await devices.onLaptop(["views", "--json"]))
        #expect(kept.count == 1)
        #expect(kept.first?["name"] as? String == "Garden now")
        #expect(kept.first?["query"] as? String == "#garden due<+7d")
        #expect(kept.first?["count"] as? Int == 1)
        // Removed on the laptop, it goes from the phone too.
        #expect(try await devices.onLaptop(["views", "rm", "garden NOW"]).status == 0)
        #expect(try await devices.onLaptop(["sync"]).status == 0)
        try await devices.onPhone(["sync"])
        #expect(try await devices.onPhone(["views", "--json"]) == "[]")
    }

    @Test func aViewIsRefusedWithoutAQuestionWithAWordThatIsNoneOrWithATakenName() async throws {
        let home = try TempDir.make()
        #expect(try await TodoCLI.run(["lists", "add", "Work"], home: home).status == 0)
        let none = try await TodoCLI.run(["views", "add", "Empty"], home: home)
        #expect(none.status != 0 && none.err.contains("needs a question"))
        let bad = try await TodoCLI.run(["views", "add", "Late", "is:late"], home: home)
        #expect(bad.status != 0 && bad.err.contains("“is:late”"))
        let list = try await TodoCLI.run(["views", "add", "work", "#x"], home: home)
        #expect(list.status != 0 && list.err.contains("A list is named"))
        #expect(try await TodoCLI.run(["views", "add", "Urgent", "!high", "-#someday"], home: home).status == 0)
        let twice = try await TodoCLI.run(["views", "add", "URGENT", "!low"], home: home)
        #expect(twice.status != 0 && twice.err.contains("exists already"))
        #expect(try await TodoCLI.run(["views"], home: home).out.contains("Urgent\t!high -#someday\t0"))
    }
}
