/// An item as a small text file for the person's own editor (`E`, like `task edit`): one
/// `Field: value` line per field, then the notes, every line after `Notes:`. Lines starting with
/// `#` are comments. Reading it back names the line of anything it cannot read.
public enum ItemFile {
    /// What a file could not be read as.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// The 1-based line.
        public var line: Int
        /// What is wrong there.
        public var reason: String
        public var description: String { "line \(line): \(reason)" }

        /// What is wrong on a line.
        public init(line: Int, reason: String) { (self.line, self.reason) = (line, reason) }
    }

    static let header = """
        # Edit the item, save and quit. Lines starting with # are left out.
        # Due and Start: today, tomorrow, a weekday, +3d, 2026-12-01 (optionally T18:00), or empty.
        # Reminders: -1h, -30m, -2d (before the due time) or 2026-12-01T09:00, a space apart, or empty.
        # Priority: high, medium, low or empty. Repeat: daily, weekly, monthly, yearly, weekdays, 3d, 2w, 1m or empty.
        # List: the name of an existing list, or empty for the Inbox. Everything after Notes: is the notes.
        # Parent: the id of the item this is a step of (todo list --json shows ids), or empty for none.
        """

    /// The file for an item in `listName` (nil: the Inbox).
    public static func render(_ item: TodoItem, listName: String?) -> String {
        var lines = header.split(separator: "\n").map(String.init)
        lines += [
            "Text: \(item.text)", "Complete: \(item.complete ? "yes" : "no")", "Due: \(item.due?.text ?? "")",
            "Start: \(item.start?.text ?? "")",
            "Priority: \(item.priority?.rawValue ?? "")", "Tags: \(item.tags.sorted().joined(separator: " "))",
            "Reminders: \(Reminder.text(item.reminders) ?? "")",
            "List: \(listName ?? "")", "Parent: \(item.parentId ?? "")", "Repeat: \(item.repeatRule?.text ?? "")", "Notes:",
        ]
        return lines.joined(separator: "\n") + "\n" + item.notes + (item.notes.isEmpty ? "" : "\n")
    }

    /// The person's file again, headed by why it could not be saved (an older such line replaced).
    public static func withError(_ text: String, _ error: String) -> String {
        let kept = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("# NOT SAVED:") }
        return "# NOT SAVED: \(error). Fix it and save again, or save it unchanged to give up.\n" + kept.joined(separator: "\n")
    }

    /// The item a file describes, from `original`; `listName` is the list it names (nil: the
    /// Inbox), for the caller to find.
    public static func parse(_ text: String, original: TodoItem, today: DueDate?) throws(ParseError) -> (item: TodoItem, listName: String?) {
        var item = original
        var listName: String?
        var seen = Set<String>()
        // Any line end: an editor may save CRLF, and "\r\n" is one Character, never "\n" (found by fuzz-item-file).
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        var index = 0
        while index < lines.count {
            let line = lines[index]
            index += 1
            if line.hasPrefix("#") || line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            guard let colon = line.firstIndex(of: ":") else { throw ParseError(line: index, reason: "expected “Field: value”") }
            let field = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard seen.insert(field).inserted else { throw ParseError(line: index, reason: "“\(field)” appears twice") }
            switch field {
            case "text":
                guard !value.isEmpty else { throw ParseError(line: index, reason: "the text cannot be blank") }
                item.text = value
            case "complete":
                guard let complete = ["yes": true, "no": false, "true": true, "false": false][value.lowercased()] else {
                    throw ParseError(line: index, reason: "Complete is yes or no")
                }
                item.complete = complete
            case "due":
                if value.isEmpty { item.due = nil; continue }
                guard let due = QuickAdd.due(typed: value, today: today) else {
                    throw ParseError(line: index, reason: "“\(value)” is not a due date")
                }
                item.due = due
            case "start":
                if value.isEmpty { item.start = nil; continue }
                guard let start = QuickAdd.due(typed: value, today: today) else {
                    throw ParseError(line: index, reason: "“\(value)” is not a start date")
                }
                item.start = start
            case "priority":
                if value.isEmpty { item.priority = nil; continue }
                guard let priority = QuickAdd.priority(value) else { throw ParseError(line: index, reason: "Priority is high, medium, low or empty") }
                item.priority = priority
            case "tags":
                guard let tags = QuickAdd.tags(value.split(separator: " ")) else {
                    throw ParseError(line: index, reason: "tags are words of letters, digits, - _ or .")
                }
                item.tags = tags
            case "reminders":
                var reminders = Set<Reminder>()
                for word in value.split(whereSeparator: \.isWhitespace) {
                    guard let reminder = Reminder(typed: String(word), today: today) else {
                        throw ParseError(line: index, reason: "“\(word)” is not a reminder (-1h, -30m, -2d or 2026-12-01T09:00)")
                    }
                    reminders.insert(reminder)
                }
                item.reminders = reminders
            case "list": listName = value.isEmpty ? nil : value
            case "parent": item.parentId = value.isEmpty ? nil : value  // the store refuses one that is not there or would make a cycle
            case "repeat":
                if value.isEmpty { item.repeatRule = nil; continue }
                guard let rule = RepeatRule(value) else { throw ParseError(line: index, reason: "“\(value)” is not a repeat rule") }
                item.repeatRule = rule
            case "notes":
                // The rest of the file, trailing blank lines aside; a value on the line itself starts it.
                var notes = value.isEmpty ? [] : [value]
                notes += lines[index...]  // notes are the person's own: a `#` line there is theirs
                while notes.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { notes.removeLast() }
                item.notes = notes.joined(separator: "\n")
                index = lines.count
            default: throw ParseError(line: index, reason: "no field is called “\(field)”")
            }
        }
        guard seen.contains("text") else { throw ParseError(line: max(1, lines.count), reason: "the Text: line is missing") }
        return (item, listName)
    }
}
