import OfflineSync

/// Signing in's effect, run against `SignInClient` beside the store's work.
public enum SignInEffect: CapabilityEffect {
    /// Sign in and keep the token → `.signedIn` or `.signIn(.failed)`.
    case submit(user: String, password: String)

    @MainActor public func run(in runtime: AppRuntime) {
        let client = runtime.environment.signIn
        switch self {
        case .submit(let user, let password):
            runtime.beside {
                do {
                    try await client.signIn(user, password)
                    return .signedIn(user: user)
                } catch {
                    return .signIn(.failed(SyncError.wrapping(error).message))
                }
            }
        }
    }
}

extension Effect {
    /// Signing in's effect.
    public static func signIn(_ effect: SignInEffect) -> Effect { .capability(AnyCapabilityEffect(effect)) }
}
