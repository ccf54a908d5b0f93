extension SignInClient {
    /// The server's sign-in, the token kept by the store.
    public static func live(_ store: TodoStore) -> SignInClient {
        SignInClient(signIn: { try await store.account.signIn(user: $0, password: $1) })
    }
}
