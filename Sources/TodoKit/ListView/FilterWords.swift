import TodoModel
/// The filter prompt's words: `#tag` (or `@tag`), `+List` and `!high` / `!medium` / `!low` narrow
/// by field; every other word is text the item must contain.
public struct FilterWords: Sendable, Equatable {
    /// The text words, joined by spaces (lower-cased).
    public var text: String
    /// Tags the item must have.
    public var tags: [String] = []
    /// The list it must be in (by name, letter case aside).
    public var listName: String?
    /// The priority it must have.
    public var priority: Priority?

    /// Reads a filter.
    public init(_ filter: String) {
        var text: [Substring] = []
        for word in filter.split(whereSeparator: \.isWhitespace) {
            let rest = String(word.dropFirst())
            switch word.first {
            case "#" where QuickAdd.isName(rest), "@" where QuickAdd.isName(rest): tags.append(rest.lowercased())
            case "+" where QuickAdd.isName(rest): listName = rest
            case "!" where QuickAdd.priority(rest) != nil: priority = QuickAdd.priority(rest)
            default: text.append(word)
            }
        }
        self.text = text.joined(separator: " ").lowercased()
    }

    /// True for a filter that asks nothing.
    public var isEmpty: Bool { text.isEmpty && tags.isEmpty && listName == nil && priority == nil }

    /// Whether an item passes (the store's query says the same; this is for memory).
    public func matches(_ item: TodoItem, listIds: [String: String]) -> Bool {
        (text.isEmpty || item.text.lowercased().contains(text)) && tags.allSatisfy(item.tags.contains)
            && (priority == nil || item.priority == priority)
            && (listName == nil || item.listId == listIds[listName!.lowercased()])
    }
}
