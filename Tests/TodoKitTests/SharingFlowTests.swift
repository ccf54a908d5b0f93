import Foundation
import OfflineSync
import Testing
import TodoKit
import TodoKitTestSupport
import TodoModel

/// Sharing through the runtime with an in-memory outside: the `s` dialog's requests run, their
/// answers come back, and the list shows who shares it.
@MainActor
@Suite struct SharingFlowTests {
    static let groceries = TodoList(id: "g", name: "Groceries")

    /// The app showing Groceries, signed in as ann, with bob's account on the "server".
    func onGroceries(_ outside: InMemoryEnvironment) async throws -> AppRuntime {
        try await outside.environment.signIn.signIn("ann", "ann's password")
        outside.setLists([Self.groceries])
        let app = AppRuntime.started(outside)
        try await eventually("lists") { app.state.lists == [Self.groceries] }
        app.send(.lists(.chooseScope(.list(id: "g", name: "Groceries"))))
        return app
    }

    static var accounts: [String: String] { ["ann": "ann's password", "bob": "bob's password"] }

    func dialog(_ app: AppRuntime) -> ShareDialogViewModel? {
        app.state.layers.lazy.compactMap { if case .share(let view) = $0 { view } else { nil } }.last
    }

    @Test func sharingFromTheDialogAddsTheMemberAndTheListShowsAsShared() async throws {
        let outside = InMemoryEnvironment(accounts: Self.accounts)
        let app = try await onGroceries(outside)
        app.key(.character("s"))
        try await eventually("members asked") { dialog(app)?.isBusy == false }
        app.type("bob")
        app.key(.enter)
        try await eventually("shared") { outside.shares["g"] == [SpaceMember(user: "ann", role: .owner), SpaceMember(user: "bob", role: .editor)] }
        try await eventually("the dialog lists bob") { dialog(app)?.members.contains(SpaceMember(user: "bob", role: .editor)) == true }
        try await eventually("the list is shared") { app.state.sharing["g"]?.isShared == true && app.state.sharing["g"]?.members == 2 }
        #expect(app.state.list.scope == .list(id: "g", name: "Groceries"))  // the list kept its id
    }

    @Test func removingTheLastOtherMemberMakesTheListTheOwnersAlone() async throws {
        let outside = InMemoryEnvironment(accounts: Self.accounts)
        let app = try await onGroceries(outside)
        app.key(.character("s"))
        try await eventually("members asked") { dialog(app)?.isBusy == false }
        app.type("bob")
        app.key(.enter)
        try await eventually("the dialog lists bob") { dialog(app)?.members.count == 2 && dialog(app)?.isBusy == false }
        app.key(.down)
        app.key(.down)
        app.key(.control("x"))
        try await eventually("unshared") { outside.shares["g"] == nil }
        try await eventually("the list is ann's alone") { app.state.sharing["g"]?.isShared == false }
    }

    @Test func anAccountTheServerDoesNotKnowIsRefusedInTheDialog() async throws {
        let outside = InMemoryEnvironment(accounts: Self.accounts)
        let app = try await onGroceries(outside)
        app.key(.character("s"))
        try await eventually("members asked") { dialog(app)?.isBusy == false }
        app.type("nobody")
        app.key(.enter)
        try await eventually("refused") { dialog(app)?.message == "There is no account named 'nobody'" }
        #expect(outside.shares.isEmpty)
        #expect(dialog(app) != nil)
    }

    @Test func anAppWhoseEnvironmentHasNoSharingSaysSoInTheDialog() async throws {
        let outside = InMemoryEnvironment(accounts: Self.accounts)
        try await outside.environment.signIn.signIn("ann", "ann's password")
        outside.setLists([Self.groceries])
        var environment = outside.environment
        environment.sharing = .unavailable
        let app = AppRuntime(state: AppState(server: "http://127.0.0.1:9"), environment: environment)
        app.send(.list(.resized(pageHeight: 10)))
        app.start()
        try await eventually("lists") { app.state.lists == [Self.groceries] }
        app.send(.lists(.chooseScope(.list(id: "g", name: "Groceries"))))
        app.key(.character("s"))
        try await eventually("refused") { dialog(app)?.message == "Sharing is not available here" }
        #expect(outside.shares.isEmpty)
    }
}
