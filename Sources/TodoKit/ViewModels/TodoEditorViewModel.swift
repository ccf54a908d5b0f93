import Foundation

/// The "Todo Item" editor as a value: a text field and a Complete Yes/No field; Enter saves (only
/// when something changed, like the seed app), Esc returns without saving.
public struct TodoEditorViewModel: Sendable, Equatable {
    /// The two fields, in Tab order.
    public enum Focus: Sendable, Equatable { case text, complete }

    /// Everything the editor's `update` takes.
    public enum Message: Sendable, Equatable {
        /// A key of the editor's table.
        case action(EditorAction)
        /// A key for the text field.
        case typed(KeyEvent)
    }

    /// The item as it was opened.
    public let original: TodoItem
    public private(set) var text: TextField
    public private(set) var complete: Bool
    public private(set) var focus: Focus = .text
    /// Set once the editor is done; the app closes it.
    public private(set) var isClosed = false

    /// Opens an item.
    public init(item: TodoItem) { self.init(item: item, draft: item) }

    /// Opens an item with other values already typed in (editing resumed after a clash).
    public init(item: TodoItem, draft: TodoItem) {
        original = item
        text = TextField(draft.text)
        complete = draft.complete
    }

    /// The item with the edits applied.
    public var edited: TodoItem {
        var item = original
        item.text = text.text
        item.complete = complete
        return item
    }

    /// Applies one message.
    public mutating func update(_ message: Message) -> [Effect] {
        switch message {
        case .typed(let key): if focus == .text { text.handle(key) }
        case .action(.nextField): focus = focus == .text ? .complete : .text
        case .action(.toggleComplete): complete.toggle()
        case .action(.setComplete(let value)): complete = value
        case .action(.back): isClosed = true
        case .action(.save):
            isClosed = true
            let item = edited
            let changed = item.text != original.text || item.complete != original.complete
            if changed && !item.text.trimmingCharacters(in: .whitespaces).isEmpty { return [.save(item, original: original)] }
        }
        return []
    }
}
