import Foundation
import OfflineSync
import Testing
@testable import TodoKit
import TodoKitTestSupport

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
        app.send(.listsLoaded([home]))
        app.send(.dayStarted(today, secondsLeft: 3_600))
        return app
    }

    func showing(_ scope: ListScope) -> ListFixture {
        var app = app()
        app.send(.chooseScope(scope))
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
        app.send(.scopeCountsLoaded([.today: 2]))
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
        app.send(.listsLoaded([TodoList(id: "home", name: "House")]))
        #expect(app.state.list.scope == .list(id: "home", name: "House"))
        app.send(.listsLoaded([]))
        #expect(app.state.list.scope == .inbox)
    }

    @Test func theCountsFollowTheListsAndTheDay() {
        var app = app()
        #expect(app.effects.contains(.observeScopeCounts(app.state.scopes, ScopeContext(today: today, lists: [home]))))
    }
}

/// The `a` prompt reads quick-add words and takes its defaults from the scope it was opened in.
@Suite struct AddPromptTests {
    let today = DueDate("2026-11-24")!

    func prompt(in scope: ListScope, typing text: String) -> AddPromptViewModel {
        var app = ListFixture()
        app.send(.listsLoaded([TodoList(id: "home", name: "Home")]))
        app.send(.dayStarted(today, secondsLeft: 3_600))
        app.send(.chooseScope(scope))
        app.press(.character("a"))
        app.type(text)
        guard case .addPrompt(let prompt)? = app.state.layers.last else { Issue.record("no prompt"); return AddPromptViewModel() }
        return prompt
    }

    @Test func theWordsSetFieldsAndThePreviewSaysWhich() {
        let quick = prompt(in: .all, typing: "Call plumber +home @phone !high due:tomorrow").parsed
        #expect(quick.text == "Call plumber" && quick.listName == "home" && quick.due?.text == "2026-11-25")
        #expect(quick.summary == "list home · due 2026-11-25 · !high · #phone")
    }

    @Test func openedOnAListTheItemGoesToThatList() {
        #expect(prompt(in: .list(id: "home", name: "Home"), typing: "fix tap").parsed.listId == "home")
        #expect(prompt(in: .list(id: "home", name: "Home"), typing: "fix tap +garage").parsed.listId == nil)
    }

    @Test func openedOnTodayTheItemIsDueToday() {
        #expect(prompt(in: .today, typing: "call mum").parsed.due == today)
        #expect(prompt(in: .today, typing: "call mum due:fri").parsed.due?.text == "2026-11-27")
    }
}

/// The filter prompt's words: #tag, +List and !priority narrow by field; the rest is text.
@Suite struct FilterWordsTests {
    @Test func fieldWordsAreTakenAndTheRestIsText() {
        let words = FilterWords("Call #Phone +home !high mum e-mail!")
        #expect(words.text == "call mum e-mail!")
        #expect(words.tags == ["phone"] && words.listName == "home" && words.priority == .high)
    }

    @Test func theListNarrowsByTagListAndPriority() {
        var app = ListFixture()
        app.items = [TodoItem(id: "a", text: "call mum", priority: .high, tags: ["phone"], listId: "home"),
                     TodoItem(id: "b", text: "call bank", tags: ["phone", "money"]),
                     TodoItem(id: "c", text: "fix tap", listId: "home")]
        app.storeChanged()
        app.send(.listsLoaded([TodoList(id: "home", name: "Home")]))
        app.press(.character("/"))
        app.type("#phone")
        #expect(app.visibleTexts == ["call mum", "call bank"])  // high priority first
        app.type(" +Home")
        #expect(app.visibleTexts == ["call mum"])
        app.press(.escape, .character("/"))
        app.type("!high")
        #expect(app.visibleTexts == ["call mum"])
    }
}

/// `E`: the item as a text file in the person's own editor, read back, saved or handed back.
@Suite struct ExternalEditTests {
    func editing() -> (ListFixture, String) {
        var app = ListFixture(["plumber"])
        app.send(.listsLoaded([TodoList(id: "home", name: "Home")]))
        guard case .runEditor(let file)? = app.send(.key(.character("E"))).first else { Issue.record("no editor"); return (app, "") }
        return (app, file)
    }

    @Test func eHandsTheItemToTheEditorAsAFile() {
        let (_, file) = editing()
        #expect(file.contains("Text: plumber\n"))
        #expect(file.contains("List: \n"))
    }

    @Test func aChangedFileIsSaved() {
        var (app, file) = editing()
        let changed = file.replacingOccurrences(of: "Priority: \n", with: "Priority: high\n").replacingOccurrences(of: "List: \n", with: "List: home\n")
        let effects = app.send(.externalEditFinished(changed, error: nil))
        #expect(effects == [.save(TodoItem(id: "0", text: "plumber", priority: .high, listId: "home"), original: TodoItem(id: "0", text: "plumber"))])
        #expect(app.state.externalEdit == nil)
    }

    @Test func aFileItCannotReadGoesBackToTheEditorWithTheReason() {
        var (app, file) = editing()
        let wrong = file.replacingOccurrences(of: "Due: \n", with: "Due: someday\n")
        guard case .runEditor(let again)? = app.send(.externalEditFinished(wrong, error: nil)).first else { Issue.record("not handed back"); return }
        #expect(again.hasPrefix("# NOT SAVED: line 7: “someday” is not a due date."))
        #expect(app.send(.externalEditFinished(again, error: nil)).isEmpty)  // saved unchanged: give up
        #expect(app.state.status.message == "Not changed")
    }

    @Test func anUnknownListIsHandedBackToo() {
        var (app, file) = editing()
        let wrong = file.replacingOccurrences(of: "List: \n", with: "List: Garage\n")
        guard case .runEditor(let again)? = app.send(.externalEditFinished(wrong, error: nil)).first else { Issue.record("not handed back"); return }
        #expect(again.contains("no list is called “Garage”"))
    }

    @Test func anEditorThatDidNotRunSaysWhy() {
        var (app, _) = editing()
        app.send(.externalEditFinished(nil, error: "there is no terminal to run it in"))
        #expect(app.state.status.message == "Could not run your editor: there is no terminal to run it in")
    }
}
