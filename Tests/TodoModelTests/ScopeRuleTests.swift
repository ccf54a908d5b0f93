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

    // MARK: Start dates

    let passport = TodoItem(text: "renew passport", start: DueDate("2026-12-05"))

    @Test func anItemStartingLaterIsHeldBackFromAllTheInboxAndItsList() {
        #expect(!admits(.all, passport))
        #expect(!admits(.inbox, passport))
        #expect(!admits(.list(id: "home", name: "Home"), TodoItem(text: "x", start: DueDate("2026-11-25T08:00"), listId: "home")))
    }

    @Test func anItemStartingLaterIsHeldBackFromTodayThoughItIsDue() {
        #expect(!admits(.today, TodoItem(text: "x", due: DueDate("2026-11-20"), start: DueDate("2026-11-30"))))
    }

    @Test func anItemWaitingForItsStartIsInUpcomingHoweverFarOff() {
        #expect(admits(.upcoming, TodoItem(text: "x", start: DueDate("2027-03-01"))))
    }

    @Test func anItemJoinsTodayOnItsStartDay() {
        #expect(admits(.today, TodoItem(text: "x", start: DueDate("2026-11-24T09:00"))))
        #expect(!admits(.today, TodoItem(text: "x", start: DueDate("2026-11-23"))))
    }

    @Test func anItemThatHasStartedIsInItsScopesAsAnyOther() {
        #expect(admits(.all, TodoItem(text: "x", start: DueDate("2026-11-24T23:00"))))
        #expect(admits(.inbox, TodoItem(text: "x", start: DueDate("2026-01-01"))))
    }

    @Test func itemsHeldBackShowWhenAskedFor() {
        #expect(ScopeRule(scope: .all, context: context, showCompleted: false, showHeldBack: true).admits(passport))
    }

    @Test func withoutTodayKnownNothingIsHeldBack() {
        #expect(ScopeRule(scope: .all, context: ScopeContext(), showCompleted: false).admits(passport))
    }
}
