import OfflineSync
import Testing
@testable import TodoKit
import TodoKitTestSupport
@testable import TodoModel

/// The share dialog (`s` on a list), as pure updates: what it asks the outside for, and how it
/// takes the answers.
@Suite struct ShareDialogTests {
    static let groceries = TodoList(id: "g", name: "Groceries")

    func onGroceries() -> ListFixture {
        var app = ListFixture([], server: "http://127.0.0.1:9")
        app.send(.lists(.listsLoaded([Self.groceries])))
        app.send(.lists(.chooseScope(.list(id: "g", name: "Groceries"))))
        return app
    }

    var dialog: (ListFixture) -> ShareDialogViewModel? = { app in
        app.state.layers.lazy.compactMap { if case .share(let view) = $0 { view } else { nil } }.last
    }

    @Test func sOnAListOpensTheDialogAndAsksWhoSharesIt() {
        var app = onGroceries()
        let effects = app.send(.key(.character("s")))
        #expect(dialog(app)?.listName == "Groceries")
        #expect(effects.contains(.sharing(.loadMembers(listId: "g"))))
    }

    @Test func sOffAListSaysToShowOneFirst() {
        var app = ListFixture([], server: "http://127.0.0.1:9")
        app.press(.character("s"))
        #expect(dialog(app) == nil)
        #expect(app.state.status.message?.contains("Show a list first") == true)
    }

    @Test func typingANameAndEnterSharesInTheChosenRole() {
        var app = onGroceries()
        app.press(.character("s"))
        app.send(.sharing(.dialog(.membersLoaded([SpaceMember(user: "ann", role: .owner)]))))
        app.type("bob")
        app.press(.tab)
        let effects = app.send(.key(.enter))
        #expect(effects == [.sharing(.shareList(listId: "g", user: "bob", role: .viewer))])
    }

    @Test func aFirstShareMovesTheListAndTheScreenFollowsIt() {
        var app = onGroceries()
        app.press(.character("s"))
        app.send(.sharing(.dialog(.membersLoaded([]))))
        app.type("bob")
        app.press(.enter)
        let effects = app.send(.sharing(.dialog(.shared(listId: "g2", was: "g", user: "bob", role: .editor))))
        #expect(effects.contains(.sharing(.loadMembers(listId: "g2"))))
        #expect(app.state.list.scope == .list(id: "g2", name: "Groceries"))
        #expect(dialog(app)?.message == "Shared with bob as editor")
    }

    @Test func aFirstShareAnsweredAfterTheDialogClosedStillMovesTheScreen() {
        var app = onGroceries()
        app.press(.character("s"))
        app.send(.sharing(.dialog(.membersLoaded([]))))
        app.type("bob")
        app.press(.enter)
        app.press(.escape)
        #expect(dialog(app) == nil)
        app.send(.sharing(.dialog(.shared(listId: "g2", was: "g", user: "bob", role: .editor))))
        #expect(app.state.list.scope == .list(id: "g2", name: "Groceries"))
    }

    @Test func ctrlXRemovesTheSelectedMember() {
        var app = onGroceries()
        app.press(.character("s"))
        app.send(.sharing(.dialog(.membersLoaded([SpaceMember(user: "ann", role: .owner), SpaceMember(user: "bob", role: .editor)]))))
        app.press(.down, .down)
        let effects = app.send(.key(.control("x")))
        #expect(effects == [.sharing(.unshareList(listId: "g", user: "bob"))])
    }

    @Test func aRefusalIsShownAndTheDialogStaysOpen() {
        var app = onGroceries()
        app.press(.character("s"))
        app.send(.sharing(.dialog(.membersLoaded([]))))
        app.type("nobody")
        app.press(.enter)
        app.send(.sharing(.dialog(.failed("There is no account named 'nobody'"))))
        #expect(dialog(app)?.message == "There is no account named 'nobody'")
        #expect(dialog(app)?.isBusy == false)
        app.press(.escape)
        #expect(dialog(app) == nil)
    }

    @Test func enterBeforeTheMembersArriveSharesOnceTheyDo() {
        var app = onGroceries()
        app.press(.character("s"))
        app.type("bob")
        #expect(app.send(.key(.enter)) == [])
        #expect(dialog(app)?.message?.contains("once it is here") == true)
        let effects = app.send(.sharing(.dialog(.membersLoaded([]))))
        #expect(effects == [.sharing(.shareList(listId: "g", user: "bob", role: .editor))])
    }

    @Test func enterWhileARequestIsOnItsWaySaysToWait() {
        var app = onGroceries()
        app.press(.character("s"))
        app.send(.sharing(.dialog(.membersLoaded([]))))
        app.type("bob")
        app.press(.enter)
        #expect(app.send(.key(.enter)) == [])
        #expect(dialog(app)?.message == "Waiting for the server's answer…")
    }

    @Test func aFailedLoadForgetsTheEarlyEnter() {
        var app = onGroceries()
        app.press(.character("s"))
        app.type("bob")
        app.press(.enter)
        app.send(.sharing(.dialog(.failed("The server could not be reached"))))
        #expect(app.send(.sharing(.dialog(.membersLoaded([])))) == [])
    }
}
