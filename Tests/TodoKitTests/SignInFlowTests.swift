import Foundation
import ServerTestSupport
import Testing
@testable import TodoKit
import TodoKitTestSupport
@testable import TodoModel

/// Signing in from the full-screen app against a real server that requires accounts.
@MainActor
@Suite struct SignInFlowTests {
    /// A server requiring tokens with the account ann / "pw one two".
    func accountServer() async throws -> ServerProcess {
        let database = try TempDir.make().appendingPathComponent("s.sqlite").path
        let server = try await ServerProcess.start(arguments: ["--database", database, "--auth", "required"])
        let (status, errors) = try await ServerProcess.runToExit(arguments: ["users", "add", "ann", "--password-stdin", "--database", database], input: "pw one two\n")
        guard status == 0 else { throw ServerStartError(description: errors) }
        return server
    }

    func device(_ server: ServerProcess, tokens: TokenStore) throws -> TodoStore {
        try TodoStore(storePath: try TempDir.make().appendingPathComponent("d.sqlite").path, serverURL: server.baseURL, tokens: tokens)
    }

    @Test func changesMadeBeforeSigningInArePushedAsTheUsersOnceSignedIn() async throws {
        let server = try await accountServer()
        let tokens = TokenStore(path: try TempDir.make().appendingPathComponent("tokens.json").path)
        let service = try device(server, tokens: tokens)
        try await service.items.add("written before signing in")
        let store = AppRuntime.started(service)
        store.send(.sync(.syncRequested))
        try await eventually("signed out", timeout: 30) { store.state.status.connectivity == .signedOut }
        #expect(store.state.signIn != nil)
        #expect(service.server.pendingCount == 1)
        store.signIn(password: "pw one two")
        try await eventually("synced", timeout: 30) { store.state.status.connectivity == .online && store.state.status.pending == 0 }
        #expect(store.state.signIn == nil)
        #expect(tokens.entry(for: server.baseURL)?.user == "ann")
        let laptop = try device(server, tokens: tokens)
        try await laptop.server.sync()
        #expect(try laptop.listing.window(ListWindowRequest()).items.map(\.text) == ["written before signing in"])
        // Who wrote it comes with the server's version, to the device that pushed and to the one that pulled.
        #expect(try service.table.read(service.table.query).records.map(\.updatedBy) == ["ann"])
        #expect(try laptop.table.read(laptop.table.query).records.map(\.updatedBy) == ["ann"])
    }
}

/// Signing in from the app over an in-memory outside: the dialog, its answers, what follows.
@MainActor
@Suite struct SignInRuntimeTests {
    @Test func aRefusedSyncOpensTheDialogAndSigningInSyncsAgain() async throws {
        let outside = InMemoryEnvironment(accounts: ["ann": "pw one two"])
        outside.changedHere(TodoItem(id: "x", text: "written before signing in"))
        let app = AppRuntime.started(outside)
        app.key(.character("r"))
        try await eventually("signed out") { app.state.signIn != nil }
        #expect(app.state.status.connectivity == .signedOut)
        app.signIn(password: "pw one two")
        try await eventually("synced") { app.state.status.connectivity == .online && !app.state.status.syncing }
        #expect(app.state.signIn == nil)
        #expect(app.state.status.user == "ann")
        #expect(outside.serverItems.map(\.text) == ["written before signing in"])
    }

    @Test func aWrongPasswordKeepsTheDialogOpenWithTheServersWords() async throws {
        let outside = InMemoryEnvironment(accounts: ["ann": "pw one two"])
        let app = AppRuntime.started(outside)
        app.key(.character("L"))
        app.signIn(password: "wrong")
        try await eventually("refused") { app.state.signIn?.error != nil }
        #expect(app.state.signIn?.error == "The user name or password is wrong")
        #expect(app.state.status.user == nil)
        #expect(outside.signedIn == nil)
    }
}

extension AppRuntime {
    /// Types ann's name and `password` into the sign-in dialog and submits.
    func signIn(password: String) {
        type("ann")
        key(.tab)
        type(password)
        key(.enter)
    }
}
