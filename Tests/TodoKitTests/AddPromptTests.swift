import Foundation
import OfflineSync
import Testing
@testable import TodoKit
import TodoKitTestSupport
@testable import TodoModel

/// The `a` prompt reads quick-add words and takes its defaults from the scope it was opened in.
@Suite struct AddPromptTests {
    let today = DueDate("2026-11-24")!

    func prompt(in scope: ListScope, typing text: String) -> AddPromptViewModel {
        var app = ListFixture()
        app.send(.lists(.listsLoaded([TodoList(id: "home", name: "Home")])))
        app.send(.dayStarted(today, secondsLeft: 3_600))
        app.send(.lists(.chooseScope(scope)))
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
