/// The sign-in dialog as a value: a user name, a masked password, and why the last try failed.
public struct SignInDialogViewModel: Sendable, Equatable {
    /// The two fields, in Tab order.
    public enum Focus: Sendable, Equatable { case user, password }

    /// Everything the dialog's `update` takes.
    public enum Message: Sendable, Equatable {
        /// A key of the dialog's table.
        case action(SignInAction)
        /// A key for the focused field.
        case typed(KeyEvent)
        /// The server refused the name or password, or could not be reached.
        case failed(String)
    }

    public private(set) var user: TextField
    public private(set) var password = TextField()
    public private(set) var focus: Focus
    /// Why the last try failed, in the server's words.
    public private(set) var error: String?
    /// A sign-in is on its way.
    public private(set) var isSigningIn = false
    /// Set once the person gave up; the app then closes the dialog.
    public private(set) var isCancelled = false

    /// The dialog, with the user name of the last sign-in if any.
    public init(user: String = "") {
        self.user = TextField(user)
        focus = user.isEmpty ? .user : .password
    }

    /// Applies one message.
    public mutating func update(_ message: Message) -> [Effect] {
        switch message {
        case .typed(let key):
            guard !isSigningIn else { return [] }
            if focus == .user { user.handle(key) } else { password.handle(key) }
        case .action(.nextField): focus = focus == .user ? .password : .user
        case .action(.cancel): isCancelled = true
        case .action(.submit):
            guard !isSigningIn else { return [] }
            let name = user.text.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else {
                error = "Type your user name"
                focus = .user
                return []
            }
            guard !password.text.isEmpty else {
                error = "Type your password"
                focus = .password
                return []
            }
            isSigningIn = true
            error = nil
            return [.signIn(.submit(user: name, password: password.text))]
        case .failed(let reason):
            isSigningIn = false
            error = reason
            password = TextField()
            focus = .password
        }
        return []
    }
}

extension SignInDialogViewModel: LayerView {
    public static var keys: KeyTable<SignInAction> { KeyTables.signIn }
    public static var typesText: Bool { true }
    public var layer: Layer { .signIn(self) }
    public static func from(_ layer: Layer) -> Self? { if case .signIn(let view) = layer { view } else { nil } }
    public var isClosed: Bool { isCancelled }
    public mutating func update(_ action: SignInAction) -> [Effect] { update(.action(action)) }
    public mutating func typed(_ key: KeyEvent) -> [Effect] { update(.typed(key)) }
}

extension SignInDialogViewModel: OpenableLayer {
    /// Opens with the last user's name; with no server there is nothing to sign in to.
    public static func open(in state: AppState) -> (view: SignInDialogViewModel?, effects: [Effect]) {
        guard state.status.server != nil else { return (nil, [.send(.notice(AppState.localOnlyNotice))]) }
        return (SignInDialogViewModel(user: state.status.user ?? ""), [])
    }
}

extension SignInDialogViewModel.Message: LayerMessage {
    public func apply(to view: inout SignInDialogViewModel) -> [Effect] { view.update(self) }

    /// A sign-in that failed after its dialog closed says so on the status bar (one that worked
    /// has said so by `.signedIn`); keys and typing have no dialog to go to.
    public func whenNoLayer() -> [Effect] {
        if case .failed(let reason) = self { [.send(.notice("Not signed in: \(reason)"))] } else { [] }
    }
}
