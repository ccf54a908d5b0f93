import TodoModel
/// The "Change 12 marked:" prompt on the list's bottom line (`:` with marks): its words
/// (`ItemChange`: `+List`, `!high`, `due:fri`, `#tag`, `-#tag`) change every marked item at once,
/// one undo step; it shows what it understood, or which word it cannot read.
public struct MarkedChangePromptViewModel: LayerView {
    /// The text typed so far.
    public private(set) var field = TextField()
    public private(set) var isClosed = false
    /// The marked items, and how many.
    public let marked: MarkedItems
    public let count: Int
    /// Today, for relative dates.
    public let today: DueDate

    /// A prompt over `count` marked items.
    public init(marked: MarkedItems, count: Int, today: DueDate) {
        (self.marked, self.count, self.today) = (marked, count, today)
    }

    /// The prompt's label.
    public var label: String { "Change \(count) marked: " }

    /// What the words do, or what is wrong with them (nothing typed yet: the words it takes).
    public var preview: String {
        guard !field.text.allSatisfy(\.isWhitespace) else { return "+List !high due:fri #tag -#tag" }
        do { return try ItemChange(field.text, today: today).summary } catch { return error.description }
    }

    public static var keys: KeyTable<AddPromptAction> { KeyTables.markedChangePrompt }
    public static var typesText: Bool { true }
    public var layer: Layer { .markedChangePrompt(self) }
    public static func from(_ layer: Layer) -> Self? { if case .markedChangePrompt(let view) = layer { view } else { nil } }

    public mutating func update(_ action: AddPromptAction) -> [Effect] {
        guard action == .submit else {
            isClosed = true
            return []
        }
        do {
            let change = try ItemChange(field.text, today: today)
            isClosed = true
            return [.items(.actOnMarked(.change(change), marked)), .send(.list(.marksActedOn))]
        } catch {
            return [.send(.notice(error.description))]
        }
    }

    public mutating func typed(_ key: KeyEvent) -> [Effect] {
        field.handle(key)
        return []
    }
}
