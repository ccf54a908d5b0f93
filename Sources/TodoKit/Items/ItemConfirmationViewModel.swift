import TodoModel
/// "Delete “…”? (y/n)" on the list's bottom line, or "Complete “…” and its 3 open subtasks?":
/// a change that takes subtasks along says how many first.
public struct ItemConfirmationViewModel: LayerView {
    /// What is asked about.
    public enum Intent: Sendable, Equatable {
        /// Deleting the item, and its subtasks with it.
        case delete
        /// Completing the item, and its open subtasks with it.
        case complete
    }

    /// The item.
    public let item: TodoItem
    /// What happens to it.
    public let intent: Intent
    /// The subtasks at every depth the change takes along (open ones, when completing).
    public let subtasks: Int
    public private(set) var isClosed = false

    /// Asks about `intent` on `item`, which takes `subtasks` along.
    public init(item: TodoItem, intent: Intent = .delete, subtasks: Int = 0) {
        (self.item, self.intent, self.subtasks) = (item, intent, subtasks)
    }

    /// The question, without its "(y/n)".
    public var question: String {
        let steps = subtasks == 1 ? "subtask" : "subtasks"
        switch intent {
        case .delete: return subtasks == 0 ? "Delete “\(item.text)”?" : "Delete “\(item.text)” and its \(subtasks) \(steps)?"
        case .complete: return "Complete “\(item.text)” and its \(subtasks) open \(steps)?"
        }
    }

    public static var keys: KeyTable<ConfirmAction> { KeyTables.confirm }
    public var layer: Layer { .itemConfirmation(self) }
    public static func from(_ layer: Layer) -> Self? { if case .itemConfirmation(let view) = layer { view } else { nil } }

    public mutating func update(_ action: ConfirmAction) -> [Effect] {
        isClosed = true
        guard action == .yes else { return [] }
        switch intent {
        case .delete: return [.items(.delete(item))]
        case .complete: return [.items(.setComplete(id: item.id, space: item.space, complete: true))]
        }
    }
}
