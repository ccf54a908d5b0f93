/// Signing in's messages.
public enum SignInMessage: CapabilityMessage {
    /// Signed in as this user; the token is kept.
    case signedIn(user: String)
    /// A message for the sign-in dialog.
    case dialog(SignInDialogViewModel.Message)

    public func apply(to state: inout AppState) -> [Effect] {
        switch self {
        case .signedIn(let user):
            state.closeLayers(SignInDialogViewModel.self)
            return state.status.update(.signedIn(user: user))
        case .dialog(let message): return message.deliver(in: &state)
        }
    }
}
