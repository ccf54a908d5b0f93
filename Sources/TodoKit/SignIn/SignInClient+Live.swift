extension SignInClient {
    /// The server's sign-in, the token kept by the service.
    public static func live(_ service: TodoService) -> SignInClient {
        SignInClient(signIn: { try await service.signIn(user: $0, password: $1) })
    }
}
