/// A view of the app: a value with its own key table and its own `update` (its renderer is in
/// TerminalUI). The list is the base; every other view is a `LayerView` on `AppState.layers`,
/// and keys go to the top one.
public protocol KeyedView: Sendable, Equatable {
    /// What the view's keys do.
    associatedtype Action: Sendable & Equatable
    /// The view's key table: dispatch, its hint bar and its help all read it.
    static var keys: KeyTable<Action> { get }
    /// True for views with a text field: a key the table does not bind, or binds but disables
    /// now, is typed into the field instead of answered with the reason.
    static var typesText: Bool { get }
    /// Applies a key of the table.
    mutating func update(_ action: Action) -> [Effect]
    /// A key the table does not bind (text for a field).
    mutating func typed(_ key: KeyEvent) -> [Effect]
}

/// A view over the list, on the layer stack.
public protocol LayerView: KeyedView {
    /// True once the view is done: it leaves the stack.
    var isClosed: Bool { get }
    /// The view as a layer of the stack.
    var layer: Layer { get }
    /// The view a layer holds, if it is one of this kind (the stack's pattern match, no cast).
    static func from(_ layer: Layer) -> Self?
}

extension KeyedView {
    public static var typesText: Bool { false }
    public mutating func typed(_ key: KeyEvent) -> [Effect] { [] }

    /// A key pressed on this view: its action by the table, the reason when it is disabled now,
    /// else typed.
    public mutating func press(_ key: KeyEvent, in state: AppState) -> [Effect] {
        switch Self.keys.lookup(key, in: state) {
        case .action(let action): return update(action)
        case .disabled(let reason): return Self.typesText ? typed(key) : [.send(.notice(reason))]
        case .unbound: return typed(key)
        }
    }

    /// The view's hint bar in `state`.
    public func hints(in state: AppState) -> [Hint] { Self.keys.hints(in: state) }
}
