import Foundation
import OfflineSync
import Testing
@testable import TodoKit
import TodoKitTestSupport
@testable import TodoModel

/// The list's scopes (All, Inbox, Today, Upcoming, a list, Completed), as pure updates.
@Suite struct ScopeTests {
    let today = DueDate("2026-11-24")!
    let home = TodoList(id: "home", name: "Home", position: 1)

    /// Items: one in Home, one due today, one overdue, one due Friday, one done, one of a gone list.
    func app() -> ListFixture {
        var app = ListFixture()
        app.items = [
            TodoItem(id: "a", text: "fix tap", listId: "home"),
            TodoItem(id: "b", text: "call mum", due: today),
            TodoItem(id: "c", text: "pay bill", due: DueDate("2026-11-20")),
            TodoItem(id: "d", text: "book trip", due: DueDate("2026-11-27T18:00")),
            TodoItem(id: "e", text: "old thing", complete: true),
            TodoItem(id: "f", text: "orphan", listId: "deleted-elsewhere"),
        ]
        app.storeChanged()
        app.send(.lists(.listsLoaded([home])))
        app.send(.dayStarted(today, secondsLeft: 3_600))
        return app
    }

    func showing(_ scope: ListScope) -> ListFixture {
        var app = app()
        app.send(.lists(.chooseScope(scope)))
        return app
    }

    @Test func theScopesAreAllInboxTodayUpcomingEachListThenCompleted() {
        #expect(app().state.scopes == [.all, .inbox, .today, .upcoming, .list(id: "home", name: "Home"), .completed])
    }

    @Test func todayHoldsWhatIsDueTodayOrEarlierOverdueFirst() {
        #expect(showing(.today).visibleTexts == ["pay bill", "call mum"])
    }

    @Test func upcomingHoldsTheNextSevenDays() {
        #expect(showing(.upcoming).visibleTexts == ["book trip"])
    }

    @Test func theInboxHoldsItemsWithoutAListAndThoseWhoseListIsGone() {
        #expect(showing(.inbox).visibleTexts == ["pay bill", "call mum", "book trip", "orphan"])
    }

    @Test func aListHoldsItsOwnItems() {
        #expect(showing(.list(id: "home", name: "Home")).visibleTexts == ["fix tap"])
    }

    @Test func completedHoldsTheDoneOnes() {
        #expect(showing(.completed).visibleTexts == ["old thing"])
    }

    @Test func bracketsCycleThroughTheScopes() {
        var app = app()
        app.press(.character("]"))
        #expect(app.state.list.scope == .inbox)
        app.press(.character("["), .character("["))
        #expect(app.state.list.scope == .completed)
    }

    @Test func vOpensTheSwitcherWithItsCountsAndEnterShowsTheChoice() {
        var app = app()
        app.send(.lists(.scopeCountsLoaded([.today: 2])))
        app.press(.character("v"))
        guard case .scopeSwitcher(let switcher)? = app.state.layers.last else { Issue.record("no switcher"); return }
        #expect(switcher.counts[.today] == 2)
        #expect(switcher.selected == 0)
        app.press(.down, .down, .enter)
        #expect(app.state.list.scope == .today)
        #expect(app.state.layers.isEmpty)
    }

    @Test func aListDeletedElsewhereFallsBackToTheInboxAndARenameFollows() {
        var app = showing(.list(id: "home", name: "Home"))
        app.send(.lists(.listsLoaded([TodoList(id: "home", name: "House")])))
        #expect(app.state.list.scope == .list(id: "home", name: "House"))
        app.send(.lists(.listsLoaded([])))
        #expect(app.state.list.scope == .inbox)
    }

    @Test func theCountsFollowTheListsAndTheDay() {
        let app = app()
        #expect(app.effects.contains(.lists(.observeScopeCounts(app.state.scopes, ScopeContext(today: today, lists: [home])))))
    }
}
