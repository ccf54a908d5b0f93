import OfflineSync
import TodoKit

extension InMemoryEnvironment {
    /// Signing in to the accounts a test made.
    public var signInClient: SignInClient {
        SignInClient(signIn: { [self] user, password in
            try state.withLock { state in
                guard state.accounts[user] == password else { throw SyncError(.authenticationFailed, "The user name or password is wrong") }
                state.signedIn = user
            }
        })
    }
}
