import Testing
import TodoModel

/// Which items each scope holds, as the store query and the in-memory store both read it.
@Suite struct ScopeRuleTests {
    let today = DueDate("2026-11-24")!
    var context: ScopeContext { ScopeContext(today: today, listIds: ["home"]) }

    func admits(_ scope: ListScope, _ item: TodoItem, showCompleted: Bool = false) -> Bool {
        ScopeRule(scope: scope, context: context, showCompleted: showCompleted).admits(item)
    }

    @Test func todayHoldsOpenItemsDueTodayOrEarlierAtAnyTime() {
        #expect(admits(.today, TodoItem(text: "a", due: DueDate("2026-11-24T23:30"))))
        #expect(admits(.today, TodoItem(text: "b", due: DueDate("2026-11-01"))))
        #expect(!admits(.today, TodoItem(text: "c", due: DueDate("2026-11-25"))))
        #expect(!admits(.today, TodoItem(text: "d")))
        #expect(!admits(.today, TodoItem(text: "e", complete: true, due: today), showCompleted: true))
    }

    @Test func upcomingHoldsTheSevenDaysAfterToday() {
        #expect(!admits(.upcoming, TodoItem(text: "a", due: DueDate("2026-11-24T23:30"))))
        #expect(admits(.upcoming, TodoItem(text: "b", due: DueDate("2026-11-25"))))
        #expect(admits(.upcoming, TodoItem(text: "c", due: DueDate("2026-12-01T09:00"))))
        #expect(!admits(.upcoming, TodoItem(text: "d", due: DueDate("2026-12-02"))))
    }

    @Test func theInboxHoldsItemsWithoutAListOrWhoseListIsGone() {
        #expect(admits(.inbox, TodoItem(text: "a")))
        #expect(admits(.inbox, TodoItem(text: "b", listId: "deleted elsewhere")))
        #expect(!admits(.inbox, TodoItem(text: "c", listId: "home")))
    }

    @Test func completedItemsShowInAListOnlyWhenAskedFor() {
        let done = TodoItem(text: "a", complete: true, listId: "home")
        #expect(!admits(.list(id: "home", name: "Home"), done))
        #expect(admits(.list(id: "home", name: "Home"), done, showCompleted: true))
        #expect(admits(.completed, done))
    }

    @Test func withoutTodayKnownTodayHoldsEveryOpenItemWithADueDate() {
        let rule = ScopeRule(scope: .today, context: ScopeContext(), showCompleted: false)
        #expect(rule.admits(TodoItem(text: "a", due: DueDate("2099-01-01"))))
        #expect(!rule.admits(TodoItem(text: "b")))
    }
}
