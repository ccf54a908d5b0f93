/// One row of a view's key table: the keys, the action they send, and how help and the hint bar
/// name it.
public struct KeyBinding<Action: Sendable & Equatable>: Sendable {
    /// The keys that send the action.
    public var keys: [KeyEvent]
    /// What the view's `update` receives.
    public var action: Action
    /// What the help overlay says it does.
    public var title: String
    /// The short word for the hint bar; nil keeps it out of the bar.
    public var hint: String?
    /// Why the action cannot run in this state (shown instead of running it); nil when it can.
    public var disabledReason: @Sendable (AppState) -> String?

    /// Creates a binding.
    public init(_ keys: [KeyEvent], _ action: Action, _ title: String, hint: String? = nil,
                disabledReason: @escaping @Sendable (AppState) -> String? = { _ in nil }) {
        self.keys = keys
        self.action = action
        self.title = title
        self.hint = hint
        self.disabledReason = disabledReason
    }
}

/// What a key table says about one key in one state.
public enum KeyLookup<Action: Sendable & Equatable>: Equatable {
    /// The key runs this action.
    case action(Action)
    /// The key is bound, but the action cannot run now, for this reason.
    case disabled(String)
    /// No binding has this key.
    case unbound
}

/// The keys of one view, in help order: dispatch, the help overlay and the hint bar all read it.
public struct KeyTable<Action: Sendable & Equatable>: Sendable {
    /// Every binding, in help order.
    public var bindings: [KeyBinding<Action>]

    /// Creates a table.
    public init(_ bindings: [KeyBinding<Action>]) { self.bindings = bindings }

    /// What `key` does in `state`.
    public func lookup(_ key: KeyEvent, in state: AppState) -> KeyLookup<Action> {
        guard let binding = bindings.first(where: { $0.keys.contains(key) }) else { return .unbound }
        if let reason = binding.disabledReason(state) { return .disabled(reason) }
        return .action(binding.action)
    }

    /// The action bound to `key`, for tables whose actions are never disabled.
    public func action(for key: KeyEvent) -> Action? {
        bindings.first { $0.keys.contains(key) }?.action
    }

    /// The help overlay's rows: keys and title.
    public var helpRows: [HelpRow] {
        bindings.map { HelpRow(keys: $0.keys.map(\.label).joined(separator: " / "), title: $0.title) }
    }

    /// The hint bar's entries in `state`.
    public func hints(in state: AppState) -> [Hint] {
        bindings.compactMap { binding in
            guard let word = binding.hint, let key = binding.keys.first else { return nil }
            return Hint(key: key.label, word: word, isDisabled: binding.disabledReason(state) != nil)
        }
    }
}

/// One row of the help overlay.
public struct HelpRow: Sendable, Equatable {
    /// The keys, spelled for people ("↑ / k").
    public var keys: String
    /// What they do.
    public var title: String
}

/// One entry of a hint bar.
public struct Hint: Sendable, Equatable {
    /// The key's label.
    public var key: String
    /// The short word.
    public var word: String
    /// Drawn dim: the action cannot run now.
    public var isDisabled: Bool
}
