import Testing
@testable import TerminalUI
import TodoKit
import TodoKitTestSupport
import TodoModel

/// How the list draws subtasks: a parent's fold mark and progress, its subtasks indented under it.
@Suite struct SubtaskRenderTests {
    let pack = TodoItem(id: "0", text: "Pack")
    let zebra = TodoItem(id: "1", text: "Zebra")
    let socks = TodoItem(id: "s", text: "Socks", parentId: "0")

    /// The list with "Pack" (one of two subtasks done) and "Zebra", as the store answers it.
    func app(unfolded: Bool) -> ListFixture {
        var app = ListFixture(["Pack", "Zebra"])
        let progress = ["0": SubtaskProgress(done: 1, total: 2)]
        app.send(.list(.windowLoaded(ListWindow(request: app.state.list.rows.loaded!.request, items: [pack, zebra], progress: progress))))
        if unfolded {
            app.press(.character("z"))
            app.send(.list(.windowLoaded(ListWindow(request: app.state.list.rows.loaded!.request, items: [pack, zebra],
                                                    subtaskRows: ["0": [SubtaskRow(item: socks, depth: 1)]], progress: progress))))
        }
        return app
    }

    func lines(_ app: ListFixture) -> [String] {
        AppScreen.render(app.state, width: 60, height: 10).text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func aFoldedParentShowsItsMarkAndProgressAndNotItsSubtasks() {
        let rows = lines(app(unfolded: false))
        #expect(rows[1].hasPrefix("▸[ ] Pack") && rows[1].hasSuffix("1/2"))
        #expect(rows[2].hasPrefix(" [ ] Zebra"))
    }

    @Test func anUnfoldedParentsSubtasksStandIndentedUnderIt() {
        let rows = lines(app(unfolded: true))
        #expect(rows[1].hasPrefix("▾[ ] Pack"))
        #expect(rows[2].hasPrefix("   [ ] Socks"))
        #expect(rows[3].hasPrefix(" [ ] Zebra"))
    }
}
