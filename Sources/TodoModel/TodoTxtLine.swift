/// One item as a todo.txt line: `x DONE-DATE` for a completed one, `(A)`/`(B)`/`(C)` for
/// high/medium/low, the text, then `+List`, `@tag`s, `due:`, `t:` (the start, todo.txt's
/// threshold) and `rec:`. Reading takes those words
/// from anywhere in the line; everything that has no field (creation dates, other `key:value`s,
/// `(D)`) stays in the text, so a line written in this order is read and written back unchanged.
enum TodoTxtLine {
    /// The line for an item.
    static func render(_ entry: TodoFile.Entry) -> String {
        let item = entry.item
        var words: [String] = []
        if item.complete {
            words.append("x")
            if let day = item.completedAt?.prefix(10), DueDate(String(day)) != nil { words.append(String(day)) }
        }
        if let priority = item.priority { words.append("(" + ["high": "A", "medium": "B", "low": "C"][priority.rawValue]! + ")") }
        words.append(item.text.replacingOccurrences(of: "\n", with: " "))
        if let list = entry.listName { words.append("+" + list.replacingOccurrences(of: " ", with: "_")) }
        words += item.tags.sorted().map { "@" + $0 }
        if let due = item.due { words.append("due:" + due.text) }
        if let start = item.start { words.append("t:" + start.text) }
        if let rule = item.repeatRule { words.append("rec:" + recurrence(rule)) }
        return words.joined(separator: " ")
    }

    /// Reads a line (not blank); `id` is the line's stable id.
    static func parse(_ line: String, id: String) -> TodoFile.Entry? {
        var words = line.split(separator: " ").map(String.init)
        var item = TodoItem(id: id, text: "")
        var listName: String?
        if words.first == "x", words.count > 1 {
            item.complete = true
            words.removeFirst()
            if let day = words.first, DueDate(day) != nil, day.count == 10 {
                item.completedAt = day + "T00:00:00.000Z"
                words.removeFirst()
            }
        }
        if let first = words.first, let priority = ["(A)": Priority.high, "(B)": .medium, "(C)": .low][first] {
            item.priority = priority
            words.removeFirst()
        }
        var text: [String] = []
        for word in words {
            // The last `+List`, `due:`, `t:` and `rec:` win, as in quick add: a word that reads as a
            // field never stays in the text, where it would be read as one the next time (found
            // by fuzz-todo-file).
            if word.hasPrefix("+"), QuickAdd.isName(String(word.dropFirst())) {
                listName = String(word.dropFirst())
            } else if word.hasPrefix("@"), QuickAdd.isName(String(word.dropFirst())) {
                item.tags.insert(String(word.dropFirst()).lowercased())
            } else if word.hasPrefix("due:"), let due = DueDate(String(word.dropFirst(4))) {
                item.due = due
            } else if word.hasPrefix("t:"), let start = DueDate(String(word.dropFirst(2))) {
                item.start = start
            } else if word.hasPrefix("rec:"), let rule = rule(String(word.dropFirst(4))) {
                item.repeatRule = rule
            } else {
                text.append(word)
            }
        }
        item.text = text.joined(separator: " ").trimmingCharacters(in: .whitespaces)
        guard !item.text.isEmpty else { return nil }
        return TodoFile.Entry(item: item, listName: listName)
    }

    /// todo.txt's `rec:` values: `1d`, `2w`, `1m`, `1y`, `+1w` (strict: the same here), `1b` (weekdays).
    static func rule(_ text: String) -> RepeatRule? {
        let text = text.hasPrefix("+") ? String(text.dropFirst()) : text
        if text == "1b" { return .weekdays }
        return RepeatRule(text)
    }

    static func recurrence(_ rule: RepeatRule) -> String {
        switch rule {
        case .weekdays: return "1b"
        case .every(let count, let unit): return "\(count)\(unit.rawValue)"
        }
    }
}
