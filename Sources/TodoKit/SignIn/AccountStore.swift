import OfflineSync
import TodoModel

/// The account on the server: signing in, and its app passwords.
public struct AccountStore: StoreFacet {
    let store: TodoStore

    /// Signs in to the server and keeps the token, so every later request sends it.
    public func signIn(user: String, password: String) async throws {
        guard let serverURL, let tokens = store.tokens else { throw SyncError(.invalidAction, "No server to sign in to (local only)") }
        var configuration = store.clientConfiguration
        configuration.authentication = nil
        let result = try await SyncClient(serverURL: serverURL, configuration: configuration).login(username: user, password: password)
        try tokens.set(TokenStore.Entry(user: result.userId, token: result.token), for: serverURL)
    }

    /// The user signed in to the server, if any.
    public var signedInUser: String? { serverURL.flatMap { store.tokens?.entry(for: $0)?.user } }

    /// The signed-in account's app passwords (for CalDAV apps).
    public func appPasswords() async throws -> [AppPasswordInfo] { try await accountClient("Managing app passwords").appPasswords() }

    /// Makes an app password labelled `label`; answers it (shown once).
    public func addAppPassword(label: String) async throws -> String { try await accountClient("Managing app passwords").addAppPassword(label: label) }

    /// Revokes the app password labelled `label`.
    public func removeAppPassword(label: String) async throws { try await accountClient("Managing app passwords").removeAppPassword(label: label) }

    /// The client of a signed-in account; `what` needs one.
    func accountClient(_ what: String) throws -> SyncClient {
        guard let client = context.client else { throw SyncError(.invalidAction, "\(what) needs a server (this device is local only)") }
        guard signedInUser != nil else { throw SyncError(.invalidAction, "\(what) needs an account: sign in first (todo sign-in)") }
        return client
    }
}

extension TodoStore {
    /// The account on the server.
    public var account: AccountStore { AccountStore(store: self) }
}
