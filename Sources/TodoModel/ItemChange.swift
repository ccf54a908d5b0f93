/// A change to many items at once, in quick add's words (the list's `:` over marked items):
/// `+List` moves them (`+Inbox` out of any list), `!high` (or `!none`) sets the priority,
/// `due:WHEN` (or `due:none`) the due date, `#tag` adds a tag and `-#tag` takes one off. Any
/// other word is an error that names it.
public struct ItemChange: Sendable, Equatable {
    /// The list to move to, by name; `.some(nil)`: the Inbox.
    public var listName: String??
    /// The priority to set; `.some(nil)`: none.
    public var priority: Priority??
    /// The due date to set; `.some(nil)`: none.
    public var due: DueDate??
    /// Tags to add (lower-cased).
    public var addedTags: Set<String> = []
    /// Tags to take off (lower-cased).
    public var removedTags: Set<String> = []

    /// Reads the words; relative days count from `today`.
    public init(_ words: String, today: DueDate) throws(ItemQueryError) {
        for word in words.split(whereSeparator: \.isWhitespace).map(String.init) {
            let rest = String(word.dropFirst())
            if word.hasPrefix("-#") || word.hasPrefix("-@"), QuickAdd.isName(String(word.dropFirst(2))) {
                removedTags.insert(String(word.dropFirst(2)).lowercased())
            } else if (word.hasPrefix("#") || word.hasPrefix("@")) && QuickAdd.isName(rest) {
                addedTags.insert(rest.lowercased())
            } else if word.hasPrefix("+"), QuickAdd.isName(rest) {
                listName = .some(rest.lowercased() == TodoList.inboxName.lowercased() ? nil : rest)
            } else if word.hasPrefix("!") {
                if rest.lowercased() == "none" { priority = .some(nil); continue }
                guard let value = QuickAdd.priority(rest) else { throw ItemQueryError(word: word, "a priority is !high, !medium, !low or !none") }
                priority = .some(value)
            } else if word.lowercased().hasPrefix("due:") {
                let when = String(word.dropFirst(4))
                if when.lowercased() == "none" { due = .some(nil); continue }
                guard let day = QuickAdd.due(when, today: today) else { throw ItemQueryError(word: word, "not a day (today, fri, +3d, 2026-12-01, none)") }
                due = .some(day)
            } else {
                throw ItemQueryError(word: word, "not a change (+List, !high, due:fri, #tag, -#tag)")
            }
        }
        if listName == nil, priority == nil, due == nil, addedTags.isEmpty, removedTags.isEmpty {
            throw ItemQueryError(word: words, "says no change (+List, !high, due:fri, #tag, -#tag)")
        }
    }

    /// The item changed; `listId`: the id `listName` names (the caller's to look up).
    public func applied(to item: TodoItem, listId: String?) -> TodoItem {
        var item = item
        if listName != nil { item.listId = listId }
        if let priority { item.priority = priority }
        if let due { item.due = due }
        item.tags.formUnion(addedTags)
        item.tags.subtract(removedTags)
        return item
    }

    /// What it does, for the notice: `list Home · !high · due 2026-12-01 · #a · -#b`.
    public var summary: String {
        var parts: [String] = []
        if let listName { parts.append("list \(listName ?? TodoList.inboxName)") }
        if let priority { parts.append(priority.map { "!\($0.rawValue)" } ?? "no priority") }
        if let due { parts.append(due.map { "due \($0.text)" } ?? "no due date") }
        parts += addedTags.sorted().map { "#\($0)" } + removedTags.sorted().map { "-#\($0)" }
        return parts.joined(separator: " · ")
    }
}
