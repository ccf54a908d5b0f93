import TodoModel
/// "Delete “…”? (y/n)" on the list's bottom line.
public struct DeleteConfirmationViewModel: LayerView {
    /// The item to delete.
    public let item: TodoItem
    public private(set) var isClosed = false

    /// Asks about deleting `item`.
    public init(item: TodoItem) { self.item = item }

    public static var keys: KeyTable<ConfirmAction> { KeyTables.confirm }
    public var layer: Layer { .deleteConfirmation(self) }
    public static func from(_ layer: Layer) -> Self? { if case .deleteConfirmation(let view) = layer { view } else { nil } }

    public mutating func update(_ action: ConfirmAction) -> [Effect] {
        isClosed = true
        return action == .yes ? [.items(.delete(item))] : []
    }
}
