import Testing
@testable import TodoModel

/// The words that change many marked items at once (#58): each sets one field, and a word that is
/// none is an error naming it.
@Suite struct ItemChangeTests {
    let today = DueDate("2026-11-24")!

    @Test func eachWordSetsItsFieldAndTheRestStays() throws {
        let change = try ItemChange("+Garden !high due:fri #outside -#someday", today: today)
        let item = TodoItem(id: "a", text: "weed", notes: "n", priority: .low, tags: ["someday", "beds"], listId: "old")
        let changed = change.applied(to: item, listId: "garden-id")
        #expect(changed.listId == "garden-id" && changed.priority == .high && changed.due == DueDate("2026-11-27"))
        #expect(changed.tags == ["beds", "outside"] && changed.text == "weed" && changed.notes == "n")
        #expect(change.summary == "list Garden · !high · due 2026-11-27 · #outside · -#someday")
    }

    @Test func noneClearsAndTheInboxTakesAnItemOutOfItsList() throws {
        let change = try ItemChange("+Inbox !none due:none", today: today)
        let changed = change.applied(to: TodoItem(id: "a", text: "x", due: today, priority: .high, listId: "l"), listId: nil)
        #expect(changed.listId == nil && changed.priority == nil && changed.due == nil)
    }

    @Test func aChangeThatDoesNotMoveLeavesTheList() throws {
        let changed = try ItemChange("#a", today: today).applied(to: TodoItem(id: "a", text: "x", listId: "l"), listId: nil)
        #expect(changed.listId == "l")
    }

    @Test(arguments: ["soon", "+Garden later", "!urgent", "due:someday", ""])
    func aWordThatIsNoChangeIsRefusedNamingIt(_ words: String) {
        #expect(throws: ItemQueryError.self) { try ItemChange(words, today: today) }
    }
}

/// A kept view whose text is no question (written by a newer version, say) holds no item.
@Suite struct SavedViewRuleTests {
    @Test func aViewWhoseQuestionIsNoneHoldsNothing() {
        let rule = ScopeRule(scope: .saved(SavedView(name: "x", query: "colour:red")), context: ScopeContext(), showCompleted: false)
        #expect(!rule.admits(TodoItem(id: "a", text: "red")))
    }

    @Test func aViewAskingIsDoneHoldsDoneItems() {
        let rule = ScopeRule(scope: .saved(SavedView(name: "x", query: "is:done #a")), context: ScopeContext(today: DueDate("2026-11-24")), showCompleted: false)
        #expect(rule.admits(TodoItem(id: "a", text: "x", complete: true, tags: ["a"])))
        #expect(!rule.admits(TodoItem(id: "b", text: "x", tags: ["a"])))
    }
}
