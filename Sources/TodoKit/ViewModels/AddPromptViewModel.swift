/// The "New item:" prompt on the list's bottom line.
public struct AddPromptViewModel: LayerView {
    /// The text typed so far.
    public private(set) var field = TextField()
    public private(set) var isClosed = false

    /// A prompt with `typed` in it.
    public init(typed: String = "") { field = TextField(typed) }

    public static var keys: KeyTable<AddPromptAction> { KeyTables.addPrompt }
    public static var typesText: Bool { true }
    public var layer: Layer { .addPrompt(self) }

    public mutating func update(_ action: AddPromptAction) -> [Effect] {
        isClosed = true
        let text = field.text.trimmingCharacters(in: .whitespaces)
        return action == .submit && !text.isEmpty ? [.add(text)] : []
    }

    public mutating func typed(_ key: KeyEvent) -> [Effect] {
        field.handle(key)
        return []
    }
}
