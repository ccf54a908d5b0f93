import Foundation
import ServerTestSupport
import Testing

/// `todo`'s start dates headless (#57): an item waiting for its start is left out of `list`, and
/// found by `list --all`, `list --upcoming` and the filter words.
@Suite struct StartDateCommandTests {
    /// A device with "Renew passport", starting in three days, and "Buy milk".
    private func home() async throws -> URL {
        let home = try TempDir.make()
        #expect(try await TodoCLI.run(["add", "Renew passport", "--start", "+3d"], home: home).status == 0)
        #expect(try await TodoCLI.run(["add", "Buy milk"], home: home).status == 0)
        return home
    }

    @Test func listLeavesOutAnItemWaitingForItsStart() async throws {
        let list = try await TodoCLI.run(["list"], home: try await home()).out
        #expect(list.contains("Buy milk"))
        #expect(!list.contains("Renew passport"))
    }

    @Test func listAllAndUpcomingShowTheItemWithItsStart() async throws {
        let home = try await home()
        let all = try await TodoCLI.run(["list", "--all"], home: home).out
        #expect(all.contains("Renew passport") && all.contains("starts "))
        let upcoming = try await TodoCLI.run(["list", "--upcoming"], home: home).out
        #expect(upcoming.contains("Renew passport") && !upcoming.contains("Buy milk"))
    }

    @Test func listJSONCarriesTheStart() async throws {
        let out = try await TodoCLI.run(["list", "--all", "--json"], home: try await home()).out
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
        let passport = try #require(rows.first { $0["text"] as? String == "Renew passport" })
        #expect((passport["start"] as? String)?.count == 10)
        #expect(rows.first { $0["text"] as? String == "Buy milk" }?["start"] is NSNull)
    }

    @Test func editStartNoneBringsTheItemBack() async throws {
        let home = try await home()
        let out = try await TodoCLI.run(["list", "--all", "--json"], home: home).out
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
        let id = try #require(rows.first { $0["text"] as? String == "Renew passport" }?["id"] as? String)
        #expect(try await TodoCLI.run(["edit", id, "--start", "none"], home: home).status == 0)
        #expect(try await TodoCLI.run(["list"], home: home).out.contains("Renew passport"))
    }

    @Test func aStartThatIsNoDateIsRefusedNamingTheFlag() async throws {
        let result = try await TodoCLI.run(["add", "x", "--start", "someday"], home: try TempDir.make())
        #expect(result.status != 0)
        #expect(result.err.contains("--start"))
    }
}
