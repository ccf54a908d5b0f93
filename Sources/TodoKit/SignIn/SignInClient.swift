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
