import TodoModel
/// The view switcher (`v`): every scope with its count, to choose the one the list shows.
public struct ScopeSwitcherViewModel: LayerView {
    /// The scopes, in the sidebar's order.
    public let scopes: [ListScope]
    /// How many items each holds, when counted.
    public let counts: [ListScope: Int]
    /// The row under the cursor.
    public private(set) var selected: Int
    public private(set) var isClosed = false

    /// The switcher with the cursor on the scope on screen.
    public init(scopes: [ListScope], counts: [ListScope: Int], current: ListScope) {
        self.scopes = scopes
        self.counts = counts
        selected = scopes.firstIndex(of: current) ?? 0
    }

    public static var keys: KeyTable<ScopeSwitcherAction> { KeyTables.scopeSwitcher }
    public var layer: Layer { .scopeSwitcher(self) }
    public static func from(_ layer: Layer) -> Self? { if case .scopeSwitcher(let view) = layer { view } else { nil } }

    public mutating func update(_ action: ScopeSwitcherAction) -> [Effect] {
        switch action {
        case .moveUp: selected = max(0, selected - 1)
        case .moveDown: selected = min(scopes.count - 1, selected + 1)
        case .close: isClosed = true
        case .choose:
            isClosed = true
            return scopes.indices.contains(selected) ? [.send(.lists(.chooseScope(scopes[selected])))] : []
        }
        return []
    }
}
