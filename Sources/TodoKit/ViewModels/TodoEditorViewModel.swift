import Foundation

/// The "Todo Item" editor as a value: a text field and a Complete Yes/No field. Enter and Esc both
/// leave it saving what changed (the seed app's Back saves too); blank text cannot be saved, so
/// then Enter says why and Esc asks once before it drops the change.
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
    /// Esc was pressed on blank text: a second Esc drops the change.
    public private(set) var confirmingDiscard = false
    /// What happened to the item elsewhere since it was opened, in plain words (shown in the editor).
    public private(set) var notice: String?

    /// What Enter says on blank text.
    public static let blankNotice = "The text cannot be blank — type something, or Esc twice to drop your change"
    /// What Esc says on blank text, before the second Esc.
    public static let discardNotice = "The text is blank, so it cannot be saved — Esc again drops your change"

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
        if message != .action(.back) { confirmingDiscard = false }
        switch message {
        case .typed(let key): if focus == .text { text.handle(key) }
        case .action(.nextField): focus = focus == .text ? .complete : .text
        case .action(.toggleComplete): complete.toggle()
        case .action(.setComplete(let value)): complete = value
        case .action(.back):
            guard hasChanges, isBlank, !confirmingDiscard else { return leave() }
            confirmingDiscard = true
            return [.send(.notice(Self.discardNotice))]
        case .action(.save):
            guard !isBlank else { return [.send(.notice(Self.blankNotice))] }
            return leave()
        }
        return []
    }

    /// Takes in the item as stored now (nil: gone): if it moved since the editor opened, says
    /// what saving will do. The typed values stay as they are.
    public mutating func noteStoredVersion(_ stored: TodoItem?) {
        guard let stored else {
            notice = "Deleted on another device — saving adds your edit back as a new item"
            return
        }
        if !stored.sameContent(as: original) {
            notice = "Changed on another device — saving merges, or asks if you both changed it"
        }
    }

    /// Whether the fields differ from the item as opened.
    public var hasChanges: Bool { text.text != original.text || complete != original.complete }

    private var isBlank: Bool { text.text.trimmingCharacters(in: .whitespaces).isEmpty }

    /// Closes the editor, saving the changes if there are any and they can be saved.
    private mutating func leave() -> [Effect] {
        isClosed = true
        return hasChanges && !isBlank ? [.save(edited, original: original)] : []
    }
}

extension TodoEditorViewModel: LayerView {
    public static var keys: KeyTable<EditorAction> { KeyTables.editor }
    public static var typesText: Bool { true }
    public var layer: Layer { .editor(self) }
    public mutating func update(_ action: EditorAction) -> [Effect] { update(.action(action)) }
    public mutating func typed(_ key: KeyEvent) -> [Effect] { update(.typed(key)) }
}
