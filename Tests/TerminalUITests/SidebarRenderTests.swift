import Foundation
import Testing
@testable import TerminalUI
import TodoKit
import TodoKitTestSupport
import TodoModel

/// A wide terminal shows the scopes down the left with their counts; a narrow one does not.
@Suite struct SidebarRenderTests {
    func app() -> ListFixture {
        var app = ListFixture(["milk"], pageHeight: ListScreen.pageHeight(forTerminalHeight: 12))
        app.send(.lists(.listsLoaded([TodoList(id: "h", name: "Home")])))
        app.send(.lists(.scopeCountsLoaded([.all: 1, .inbox: 1, .today: 0, .list(id: "h", name: "Home"): 12_000])))
        return app
    }

    @Test func aWideTerminalShowsTheSidebarBesideTheRows() {
        let lines = AppScreen.render(app().state, width: 100, height: 12).text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[1].hasPrefix(" All" + String(repeating: " ", count: 17) + "1 │ [ ] milk"))
        #expect(lines[5].hasPrefix(" Home" + String(repeating: " ", count: 11) + "12,000 │"))
        #expect(lines[6].hasPrefix(" Completed" + String(repeating: " ", count: 13) + "│"))
    }

    @Test func aNarrowTerminalShowsOnlyTheRows() {
        let lines = AppScreen.render(app().state, width: 80, height: 12).text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[1].hasPrefix(" [ ] milk"))
    }

    @Test func theTitleNamesTheScope() {
        var app = app()
        app.send(.lists(.chooseScope(.list(id: "h", name: "Home"))))
        let title = AppScreen.render(app.state, width: 80, height: 12).text.split(separator: "\n")[0]
        #expect(title.hasSuffix("Home · 0"))
    }
}
