/// The "Filter:" prompt on the list's bottom line: it edits the list's filter, which stays when
/// the prompt closes; arrows move the list below it.
public struct FilterPromptViewModel: LayerView {
    public private(set) var isClosed = false

    /// The prompt over the list's current filter.
    public init() {}

    public static var keys: KeyTable<FilterAction> { KeyTables.filterPrompt }
    public static var typesText: Bool { true }
    public var layer: Layer { .filterPrompt(self) }
    public static func from(_ layer: Layer) -> Self? { if case .filterPrompt(let view) = layer { view } else { nil } }

    public mutating func update(_ action: FilterAction) -> [Effect] {
        switch action {
        case .keep: isClosed = true
        case .clear:
            isClosed = true
            return [.send(.list(.clearFilter))]
        case .move(let action): return [.send(.list(.action(action)))]
        }
        return []
    }

    public mutating func typed(_ key: KeyEvent) -> [Effect] { [.send(.list(.filterTyped(key)))] }
}
