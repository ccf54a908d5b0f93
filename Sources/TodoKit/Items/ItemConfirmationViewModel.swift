import TodoModel
/// "Delete “…”? (y/n)" on the list's bottom line, or "Complete “…” and its 3 open subtasks?":
/// a change that takes subtasks along says how many first. With marks: "Delete 12 marked items?"
public struct ItemConfirmationViewModel: LayerView {
    /// What is asked about.
    public enum Intent: Sendable, Equatable {
        /// Deleting the item, and its subtasks with it.
        case delete
        /// Completing the item, and its open subtasks with it.
        case complete
    }

    /// The item (none, for marks).
    public let item: TodoItem
    /// The marked items the question is about instead, and how many they are.
    public let marked: MarkedItems?
    public let markedCount: Int
    /// What happens to it.
    public let intent: Intent
    /// The subtasks at every depth the change takes along (open ones, when completing).
    public let subtasks: Int
    public private(set) var isClosed = false

    /// Asks about `intent` on `item`, which takes `subtasks` along.
    public init(item: TodoItem, intent: Intent = .delete, subtasks: Int = 0) {
        (self.item, self.intent, self.subtasks, self.marked, self.markedCount) = (item, intent, subtasks, nil, 0)
    }

    /// Asks before deleting `count` marked items.
    public init(deleting marked: MarkedItems, count: Int) {
        (self.item, self.intent, self.subtasks, self.marked, self.markedCount) = (TodoItem(id: "", text: ""), .delete, 0, marked, count)
    }

    /// The question, without its "(y/n)".
    public var question: String {
        if marked != nil { return "Delete \(markedCount) marked item\(markedCount == 1 ? "" : "s") (and their subtasks)?" }
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
        if let marked { return [.items(.actOnMarked(.delete, marked)), .send(.list(.marksActedOn))] }
        switch intent {
        case .delete: return [.items(.delete(item))]
        case .complete: return [.items(.setComplete(id: item.id, space: item.space, complete: true))]
        }
    }
}
