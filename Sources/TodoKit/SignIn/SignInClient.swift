import OfflineSync

/// What the sign-in dialog asks of the outside.
public struct SignInClient: Sendable {
    /// Signs in and keeps the token.
    public var signIn: @Sendable (_ user: String, _ password: String) async throws -> Void

    /// A client of this closure.
    public init(signIn: @escaping @Sendable (String, String) async throws -> Void) {
        self.signIn = signIn
    }
}

extension SignInClient: CapabilityClient {
    /// Where nothing provides signing in: it fails, saying so.
    public static let unavailable = SignInClient(signIn: { _, _ in throw SyncError.unavailable("Signing in") })
}

extension AppEnvironment {
    /// Signing in.
    public var signIn: SignInClient {
        get { self[SignInClient.self] }
        set { self[SignInClient.self] = newValue }
    }
}
