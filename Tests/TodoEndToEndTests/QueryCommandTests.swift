import Foundation
import ServerTestSupport
import Testing

/// Questions headless (#58): `todo list QUERY` and `todo edit --where QUERY` (with `--dry-run`)
/// read quick add's words as conditions, change exactly the matches in one undo step, and refuse
/// a word that is no condition, naming it.
@Suite struct QueryCommandTests {
    private func run(_ arguments: [String], _ home: URL) async throws -> (status: Int32, out: String, err: String) {
        try await TodoCLI.run(arguments, home: home)
    }

    private func texts(_ run: (status: Int32, out: String, err: String)) -> [String] {
        run.out.split(separator: "\n").map { String($0.split(separator: "\t", omittingEmptySubsequences: false)[2]) }
    }

    /// A garden to tend: two #garden items due before Saturday, one after, one without a due
    /// date, one done, and one due before Saturday without the tag.
    private func garden() async throws -> URL {
        let home = try TempDir.make()
        for line in ["Weed beds #garden due:+1d", "Mow lawn #garden due:+2d", "Plant bulbs #garden due:+12d", "Buy seeds #garden",
                     "Prune roses #garden due:+1d", "Call plumber due:+1d"] {
            #expect(try await run(["add", line], home).status == 0)
        }
        let roses = try await run(["list", "Prune"], home).out.split(separator: "\t").first.map(String.init) ?? ""
        #expect(try await run(["done", roses], home).status == 0)
        return home
    }

    @Test func listReadsAQuestion() async throws {
        let home = try await garden()
        #expect(Set(texts(try await run(["list", "#garden", "due<+10d"], home))) == ["Weed beds", "Mow lawn"])
        #expect(texts(try await run(["list", "#garden", "is:done"], home)) == ["Prune roses"])
        #expect(Set(texts(try await run(["list", "due:none", "or", "!high"], home))) == ["Buy seeds"])
        #expect(Set(texts(try await run(["list", "-#garden"], home))) == ["Call plumber"])
    }

    @Test func editWhereChangesExactlyTheMatchesInOneUndoStep() async throws {
        let home = try await garden()
        let saturday = try await run(["list", "--json", "Weed"], home)
        #expect(saturday.status == 0)
        let dry = try await run(["edit", "--where", "#garden due<+10d", "--due", "+20d", "--dry-run"], home)
        #expect(dry.status == 0)
        #expect(dry.out.contains("Weed beds") && dry.out.contains("Mow lawn") && !dry.out.contains("Plant bulbs") && dry.out.contains("2 items would change."))
        // The dry run changed nothing.
        #expect(Set(texts(try await run(["list", "due<+10d"], home))) == ["Weed beds", "Mow lawn", "Call plumber"])
        let changed = try await run(["edit", "--where", "#garden due<+10d", "--due", "+20d", "--untag", "garden", "--tag", "weekend"], home)
        #expect(changed.status == 0, "\(changed.err)")
        #expect(changed.out.contains("Changed 2 of 2 matching items."))
        #expect(Set(texts(try await run(["list", "due<+10d"], home))) == ["Call plumber"])
        #expect(Set(texts(try await run(["list", "#weekend", "-#garden", "due>+19d"], home))) == ["Weed beds", "Mow lawn"])
        #expect(Set(texts(try await run(["list", "#garden"], home))) == ["Plant bulbs", "Buy seeds"])
        // One undo takes both back.
        #expect(try await run(["undo"], home).status == 0)
        #expect(Set(texts(try await run(["list", "#garden", "due<+10d"], home))) == ["Weed beds", "Mow lawn"])
    }

    /// The issue's own words: whatever today is, an item due today is due before Saturday (the
    /// next one) and one due in 12 days is not.
    @Test func editWhereGardenDueBeforeSaturdaySetsSaturdayOnExactlyTheMatches() async throws {
        let home = try await garden()
        let dry = try await run(["edit", "--where", "#garden due<saturday", "--dry-run"], home)
        let matches = Set(dry.out.split(separator: "\n").compactMap { line in line.contains("\t") ? line.split(separator: "\t").last.map(String.init) : nil })
        #expect(matches.contains("Weed beds") && !matches.contains("Plant bulbs") && !matches.contains("Buy seeds") && !matches.contains("Call plumber"))
        let before = Set(texts(try await run(["list", "due:saturday"], home)))
        let changed = try await run(["edit", "--where", "#garden due<saturday", "--due", "saturday"], home)
        #expect(changed.status == 0, "\(changed.err)")
        #expect(changed.out.contains("Changed \(matches.count) of \(matches.count) matching item"))
        #expect(Set(texts(try await run(["list", "due:saturday"], home))) == before.union(matches))
    }

    @Test func aWordThatIsNoConditionIsRefusedNamingIt() async throws {
        let home = try await garden()
        let list = try await run(["list", "due:someday"], home)
        #expect(list.status != 0 && list.err.contains("“due:someday”"), "\(list.err)")
        let edit = try await run(["edit", "--where", "#garden is:late", "--due", "today"], home)
        #expect(edit.status != 0 && edit.err.contains("“is:late”"), "\(edit.err)")
        let nothing = try await run(["edit", "--where", "#garden"], home)
        #expect(nothing.status != 0 && nothing.err.contains("--dry-run"))
    }
}
