import Foundation
import ServerTestSupport
import Testing
@testable import TodoKit

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

    func device(_ server: ServerProcess, tokens: TokenStore) throws -> TodoService {
        try TodoService(storePath: try TempDir.make().appendingPathComponent("d.sqlite").path, serverURL: server.baseURL, tokens: tokens)
    }

    func signIn(_ store: AppStore, password: String) {
        for c in "ann" { store.key(.character(c)) }
        store.key(.tab)
        for c in password { store.key(.character(c)) }
        store.key(.enter)
    }

    @Test func changesMadeBeforeSigningInArePushedAsTheUsersOnceSignedIn() async throws {
        let server = try await accountServer()
        let tokens = TokenStore(path: try TempDir.make().appendingPathComponent("tokens.json").path)
        let service = try device(server, tokens: tokens)
        _ = try service.add("written before signing in")
        let store = AppStore(service: service)
        store.start()
        store.send(.syncRequested)
        try await eventually("signed out", timeout: 30) { store.state.status.connectivity == .signedOut }
        #expect(store.state.signIn != nil)
        #expect(service.pendingCount == 1)
        signIn(store, password: "pw one two")
        try await eventually("synced", timeout: 30) { store.state.status.connectivity == .online && store.state.status.pending == 0 }
        #expect(store.state.signIn == nil)
        #expect(tokens.entry(for: server.baseURL)?.user == "ann")
        let laptop = try device(server, tokens: tokens)
        try await laptop.sync()
        #expect(try laptop.window(ListWindowRequest()).items.map(\.text) == ["written before signing in"])
    }

    @Test func aWrongPasswordKeepsTheDialogOpenWithTheServersWords() async throws {
        let server = try await accountServer()
        let store = AppStore(service: try device(server, tokens: TokenStore(path: try TempDir.make().appendingPathComponent("t.json").path)))
        store.start()
        store.key(.character("L"))
        signIn(store, password: "wrong")
        try await eventually("refused", timeout: 30) { store.state.signIn?.error != nil }
        #expect(store.state.signIn?.error == "The user name or password is wrong")
        #expect(store.state.status.user == nil)
    }
}
