import Foundation
import ServerTestSupport
import Testing

/// `todo`'s subtasks headless (#57): `--parent` on `add` and `edit`, `list` printing each subtask
/// indented under its parent, JSON's `parent`, and an item never made its own ancestor.
@Suite struct SubtaskCommandTests {
    private func run(_ arguments: [String], _ home: URL) async throws -> (status: Int32, out: String, err: String) {
        try await TodoCLI.run(arguments, home: home)
    }

    /// "Pack for the trip" with two steps, and "Buy milk"; answers the device and the parent's id.
    private func trip() async throws -> (home: URL, parent: String) {
        let home = try TempDir.make()
        let parent = try await run(["add", "Pack for the trip"], home).out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await run(["add", "Buy milk"], home).status == 0)
        #expect(try await run(["add", "Socks", "--parent", parent], home).status == 0)
        // A unique prefix names the parent as it names any item.
        #expect(try await run(["add", "Charger", "--parent", String(parent.prefix(8))], home).status == 0)
        return (home, parent)
    }

    @Test func listPrintsEachSubtaskIndentedRightAfterItsParent() async throws {
        let (home, _) = try await trip()
        let texts = try await run(["list"], home).out.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false)[2] }
        #expect(texts == ["Buy milk", "Pack for the trip", "  Charger", "  Socks"])
    }

    @Test func listJSONCarriesTheParent() async throws {
        let (home, parent) = try await trip()
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(try await run(["list", "--json"], home).out.utf8)) as? [[String: Any]])
        #expect(rows.first { $0["text"] as? String == "Socks" }?["parent"] as? String == parent)
        #expect(rows.first { $0["text"] as? String == "Pack for the trip" }?["parent"] is NSNull)
    }

    @Test func editParentNoneMakesTheSubtaskTopLevel() async throws {
        let (home, _) = try await trip()
        let socks = try #require(try await run(["list"], home).out.split(separator: "\n").first { $0.contains("Socks") }?.split(separator: "\t").first)
        #expect(try await run(["edit", String(socks), "--parent", "none"], home).status == 0)
        let texts = try await run(["list"], home).out.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false)[2] }
        #expect(texts.contains("Socks") && !texts.contains("  Socks"))
    }

    @Test func anItemPutUnderItsOwnSubtaskIsRefusedSayingSo() async throws {
        let (home, parent) = try await trip()
        let socks = try #require(try await run(["list"], home).out.split(separator: "\n").first { $0.contains("Socks") }?.split(separator: "\t").first)
        let refused = try await run(["edit", parent, "--parent", String(socks)], home)
        #expect(refused.status != 0)
        #expect(refused.err.contains("its own ancestor"))
        let itself = try await run(["edit", parent, "--parent", parent], home)
        #expect(itself.status != 0)
        #expect(itself.err.contains("a step of itself"))
    }

    @Test func aParentThatIsNoItemIsRefused() async throws {
        let (home, _) = try await trip()
        let refused = try await run(["add", "Passport", "--parent", "no-such-item"], home)
        #expect(refused.status != 0)
        #expect(refused.err.contains("No item has the id"))
    }

    @Test func completingAParentCompletesItsOpenSubtasksAsOneUndoStep() async throws {
        let (home, parent) = try await trip()
        let done = try await run(["done", parent], home)
        #expect(done.out.contains("Completed 2 subtasks with it."))
        #expect(try await run(["list"], home).out.split(separator: "\n").count == 1, "Buy milk alone is open")
        #expect(try await run(["undo"], home).status == 0)
        #expect(try await run(["list"], home).out.split(separator: "\n").count == 4)
    }

    @Test func reopeningAParentReopensNoSubtask() async throws {
        let (home, parent) = try await trip()
        #expect(try await run(["done", parent], home).status == 0)
        #expect(try await run(["edit", parent, "--complete", "false"], home).status == 0)
        let texts = try await run(["list"], home).out.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false)[2] }
        #expect(texts == ["Buy milk", "Pack for the trip"])
    }

    @Test func deletingAParentDeletesItsSubtasksAsOneUndoStep() async throws {
        let (home, parent) = try await trip()
        let removed = try await run(["rm", parent], home)
        #expect(removed.out.contains("Deleted 2 subtasks with it."))
        #expect(try await run(["list", "--all"], home).out.split(separator: "\n").count == 1)
        #expect(try await run(["undo"], home).status == 0)
        #expect(try await run(["list", "--all"], home).out.split(separator: "\n").count == 4)
    }

    @Test func movingAParentToAnotherListMovesItsSubtasks() async throws {
        let (home, parent) = try await trip()
        #expect(try await run(["edit", parent, "--list", "Travel"], home).status == 0)
        let texts = try await run(["list", "--list", "Travel"], home).out.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false)[2] }
        #expect(texts == ["Pack for the trip", "  Charger", "  Socks"])
    }

    @Test func aSubtaskWhoseParentTheListingLeavesOutStandsAtTheTop() async throws {
        let (home, _) = try await trip()
        let socks = try #require(try await run(["list"], home).out.split(separator: "\n").first { $0.contains("Socks") }?.split(separator: "\t").first)
        #expect(try await run(["edit", String(socks), "--list", "Travel"], home).status == 0)
        let texts = try await run(["list", "--list", "Travel"], home).out.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false)[2] }
        #expect(texts == ["Socks"])
    }
}
