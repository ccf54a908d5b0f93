import OfflineSync

/// Signing in's effect, run against `SignInClient` beside the store's work.
public enum SignInEffect: CapabilityEffect {
    /// Sign in and keep the token → `.signIn(.signedIn)` or `.signIn(.dialog(.failed))`.
    case submit(user: String, password: String)

    @MainActor public func run(in runtime: AppRuntime) {
        let client = runtime.environment.signIn
        switch self {
        case .submit(let user, let password):
            runtime.beside {
                do {
                    try await client.signIn(user, password)
                    return .signIn(.signedIn(user: user))
                } catch {
                    return .signIn(.dialog(.failed(SyncError.wrapping(error).message)))
                }
            }
        }
    }
}
