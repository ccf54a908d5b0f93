/// The "Todo Item" editor: a text field and a Complete Yes/No field; Enter saves (only when
/// something changed, like the seed app), Esc returns without saving.
@MainActor
public final class TodoEditorViewModel {
    /// The two fields, in Tab order.
    public enum Focus: Sendable, Equatable { case text, complete }

    /// What the app must do after a key.
    public enum Outcome: Equatable { case none, save(TodoItem), close }

    /// The item as it was opened.
    public let original: TodoItem
    public private(set) var text: TextField
    public private(set) var complete: Bool
    public private(set) var focus: Focus = .text

    /// Opens an item.
    public init(item: TodoItem) {
        original = item
        text = TextField(item.text)
        complete = item.complete
    }

    /// The item with the edits applied.
    public var edited: TodoItem {
        var item = original
        item.text = text.text
        item.complete = complete
        return item
    }

    /// Handles one key.
    public func handle(_ key: KeyEvent) -> Outcome {
        switch key {
        case .escape: return .close
        case .enter:
            let item = edited
            let changed = item.text != original.text || item.complete != original.complete
            return changed && !item.text.trimmingCharacters(in: .whitespaces).isEmpty ? .save(item) : .close
        case .tab, .backTab:
            focus = focus == .text ? .complete : .text
        default:
            switch focus {
            case .text: text.handle(key)
            case .complete:
                if key == .left || key == .right || key == .character(" ") { complete.toggle() }
                if key == .character("y") { complete = true }
                if key == .character("n") { complete = false }
            }
        }
        return .none
    }
}
