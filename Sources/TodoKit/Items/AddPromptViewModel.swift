import TodoModel
/// The "New item:" prompt on the list's bottom line. Its words set fields (`QuickAdd`), and it
/// shows what it understood as you type; opened on a list, the item goes to that list, opened on
/// Today, it is due today, unless the words say otherwise.
public struct AddPromptViewModel: LayerView {
    /// The text typed so far.
    public private(set) var field = TextField()
    public private(set) var isClosed = false
    /// The scope the prompt was opened in.
    public let scope: ListScope
    /// Today, for relative dates (nil until the app knows it: `due:` words are then text).
    public let today: DueDate?

    /// A prompt with `typed` in it, opened in `scope`.
    public init(typed: String = "", scope: ListScope = .all, today: DueDate? = nil) {
        field = TextField(typed)
        self.scope = scope
        self.today = today
    }

    /// The item the words describe now, the scope's defaults filled in.
    public var parsed: QuickAdd {
        var quick = today.map { QuickAdd(field.text, today: $0) } ?? QuickAdd(raw: field.text)
        if quick.listName == nil, case .list(let id, _) = scope { quick.listId = id }
        if quick.due == nil, scope == .today { quick.due = today }
        return quick
    }

    public static var keys: KeyTable<AddPromptAction> { KeyTables.addPrompt }
    public static var typesText: Bool { true }
    public var layer: Layer { .addPrompt(self) }
    public static func from(_ layer: Layer) -> Self? { if case .addPrompt(let view) = layer { view } else { nil } }

    public mutating func update(_ action: AddPromptAction) -> [Effect] {
        isClosed = true
        let quick = parsed
        return action == .submit && !quick.text.isEmpty ? [.items(.add(quick))] : []
    }

    public mutating func typed(_ key: KeyEvent) -> [Effect] {
        field.handle(key)
        return []
    }
}
