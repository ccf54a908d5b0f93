import Foundation
import OfflineSync
import Testing
@testable import TerminalUI
import TodoKit
import TodoKitTestSupport
import TodoModel

/// How shared lists look: members in the sidebar, a viewer's list marked read-only with its
/// writing keys refused, who last changed an item, and who changed the server's side of a conflict.
@Suite struct SharedListRenderTests {
    static let groceries = TodoList(id: "g", name: "Groceries")

    func app(role: SpaceRole, items: [TodoItem] = []) -> ListFixture {
        var app = ListFixture([], pageHeight: ListScreen.pageHeight(forTerminalHeight: 12))
        app.items = items
        app.send(.lists(.listsLoaded([Self.groceries])))
        app.send(.sharing(.loaded([ListEntry(list: Self.groceries, space: "space-1", owner: "ann", role: role, members: 3, displayName: "Groceries")])))
        app.storeChanged()
        return app
    }

    func lines(_ app: ListFixture, width: Int = 100) -> [String] {
        AppScreen.render(app.state, width: width, height: 12).text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func aSharedListShowsHowManyShareItInTheSidebar() {
        #expect(lines(app(role: .editor)).contains { $0.hasPrefix(" Groceries 👥3") })
    }

    @Test func aViewersListSaysReadOnlyAndRefusesAddingWithTheReason() {
        var app = app(role: .viewer)
        app.send(.lists(.chooseScope(.list(id: "g", name: "Groceries"))))
        #expect(lines(app, width: 80)[0].contains("Groceries · read-only"))
        app.press(.character("a"))
        #expect(app.state.layers.isEmpty)
        #expect(app.state.status.message?.contains("shared with you read-only") == true)
    }

    @Test func aViewerCannotCompleteOrDeleteAnItemOfThatList() {
        var app = app(role: .viewer, items: [TodoItem(id: "m", text: "milk", listId: "g")])
        app.press(.character(" "))
        #expect(app.state.status.message?.contains("read-only") == true)
        #expect(!app.effects.contains { if case .items(.setComplete) = $0 { true } else { false } })
        app.press(.character("d"))
        #expect(app.state.layers.isEmpty)
    }

    @Test func anEditorOfTheListMayAdd() {
        var app = app(role: .editor)
        app.send(.lists(.chooseScope(.list(id: "g", name: "Groceries"))))
        app.press(.character("a"))
        #expect(!app.state.layers.isEmpty)
    }

    @Test func theEditorSaysWhoLastChangedAnItemOfASharedList() {
        var item = TodoItem(id: "m", text: "milk", listId: "g")
        item.updatedBy = "bob"
        var app = app(role: .editor, items: [item])
        app.press(.enter)
        #expect(lines(app, width: 60)[0].hasSuffix("last changed by bob"))
    }

    @Test func theConflictDialogNamesWhoChangedTheServersSide() {
        var app = app(role: .editor)
        let at = Date(timeIntervalSince1970: 1_764_000_000)
        app.send(.conflicts(.conflictRaised(ConflictPrompt(itemId: "m", fields: [.init(name: "text", was: "milk", yours: "oat milk", servers: "soy milk")],
                                                serverChangedAt: at, serverChangedBy: "bob"))))
        let text = AppScreen.render(app.state, width: 70, height: 16).text
        #expect(text.contains("server's: soy milk (changed by bob at \(StatusBar.clock(at)))"), "\(text)")
    }

    @Test func theShareDialogShowsTheNameFieldTheRoleAndTheMembers() {
        var app = ListFixture([], server: "http://127.0.0.1:9", pageHeight: ListScreen.pageHeight(forTerminalHeight: 16))
        app.send(.lists(.listsLoaded([Self.groceries])))
        app.send(.lists(.chooseScope(.list(id: "g", name: "Groceries"))))
        app.press(.character("s"))
        app.send(.sharing(.dialog(.membersLoaded([SpaceMember(user: "ann", role: .owner), SpaceMember(user: "bob", role: .viewer)]))))
        app.type("carol")
        let text = AppScreen.render(app.state, width: 70, height: 16).text
        #expect(text.contains("Share “Groceries”"))
        #expect(text.contains("With:  carol"))
        #expect(text.contains("as ◀ editor ▶"))
        #expect(text.contains("ann") && text.contains("owner") && text.contains("bob") && text.contains("viewer"))
        #expect(text.contains("Enter share"))
    }
}
