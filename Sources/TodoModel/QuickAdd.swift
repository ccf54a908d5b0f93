/// Quick add: the words of a new item's line that set its fields, the rest kept as its text.
/// `+List`, `#tag` / `@tag`, `!high` / `!medium` / `!low` (or `!1` … `!3`), `due:WHEN`,
/// `start:WHEN`, `remind:WHEN` (repeatable) and `repeat:RULE`; a word that only looks like one (`a#b`, `e-mail!`,
/// `due:someday`) stays text.
public struct QuickAdd: Sendable, Equatable {
    /// The text left: every word that set nothing, in order.
    public var text: String
    /// The list's name (`+Name`), created if missing.
    public var listName: String?
    /// The list the line goes to without a `+Name` (the list the prompt was opened in).
    public var listId: String?
    /// Tags (`#tag`, `@tag`: todo.txt's contexts are tags).
    public var tags: Set<String> = []
    /// Priority (`!high`, `!1`…).
    public var priority: Priority?
    /// Due (`due:WHEN`).
    public var due: DueDate?
    /// Start (`start:WHEN`, in `due:`'s words).
    public var start: DueDate?
    /// Reminders (`remind:-1h`, `remind:friT09:00`).
    public var reminders: Set<Reminder> = []
    /// Repeat rule (`repeat:RULE`).
    public var repeatRule: RepeatRule?

    /// Reads a line; relative dates count from `today`.
    public init(_ line: String, today: DueDate) {
        self.text = ""
        var text: [Substring] = []
        // Split by scalars: as Characters, a space followed by a combining mark is one, so the
        // text left, joined by spaces, split differently when read again (found by fuzz-quick-add).
        for scalars in line.unicodeScalars.split(whereSeparator: \.properties.isWhitespace) {
            let word = Substring(String(String.UnicodeScalarView(scalars)))
            if !take(word, today: today) { text.append(word) }
        }
        self.text = text.joined(separator: " ")
    }

    /// A line taken as plain text (`--raw`).
    public init(raw line: String) { text = line.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Sets the field a word names; false when the word is text.
    private mutating func take(_ word: Substring, today: DueDate) -> Bool {
        guard let first = word.first else { return false }
        let rest = String(word.dropFirst())
        switch first {
        case "+" where Self.isName(rest): listName = rest
        case "#" where Self.isName(rest), "@" where Self.isName(rest): tags.insert(rest.lowercased())
        case "!":
            guard let priority = Self.priority(rest) else { return false }
            self.priority = priority
        default:
            if word.lowercased().hasPrefix("due:"), let due = Self.due(String(word.dropFirst(4)), today: today) {
                self.due = due
            } else if word.lowercased().hasPrefix("start:"), let start = Self.due(String(word.dropFirst(6)), today: today) {
                self.start = start
            } else if word.lowercased().hasPrefix("remind:"), let reminder = Reminder(typed: String(word.dropFirst(7)), today: today) {
                reminders.insert(reminder)
            } else if word.lowercased().hasPrefix("repeat:"), let rule = RepeatRule(String(word.dropFirst(7))) {
                repeatRule = rule
            } else {
                return false
            }
        }
        return true
    }

    /// The item the line describes (its list by `listId`; `listName`, when given, is the caller's to resolve).
    public var item: TodoItem {
        TodoItem(text: text, due: due, start: start, priority: priority, tags: tags, reminders: reminders, listId: listId, repeatRule: repeatRule)
    }

    /// What the prompt shows it understood: `list Home · due 2026-12-01 · !high · #phone · repeats weekly`.
    public var summary: String {
        var parts: [String] = []
        if let listName { parts.append("list \(listName)") }
        if let due { parts.append("due \(due.text)") }
        if let start { parts.append("starts \(start.text)") }
        parts += reminders.sorted().map { "reminds \($0.text)" }
        if let priority { parts.append("!\(priority.rawValue)") }
        parts += tags.sorted().map { "#\($0)" }
        if let repeatRule { parts.append("repeats \(repeatRule.text)") }
        return parts.joined(separator: " · ")
    }

    /// A list or tag name: letters, digits, `_`, `-` and `.`, not starting with punctuation.
    public static func isName(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first.isNumber else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }
    }

    /// Tags as a person types them (`home #phone @work`, a space apart): lower-cased, the `#` or
    /// `@` dropped; nil when one is not a name.
    public static func tags<Words: Sequence>(_ words: Words) -> Set<String>? where Words.Element: StringProtocol {
        var tags = Set<String>()
        for word in words {
            let name = word.hasPrefix("#") || word.hasPrefix("@") ? String(word.dropFirst()) : String(word)
            guard isName(name) else { return nil }
            tags.insert(name.lowercased())
        }
        return tags
    }

    /// A due date as a person types it: quick add's words when today is known, else a date.
    public static func due(typed text: String, today: DueDate?) -> DueDate? {
        today.flatMap { due(text, today: $0) } ?? DueDate(text)
    }

    /// `high`, `medium`, `low`, or `1`, `2`, `3`.
    public static func priority(_ text: String) -> Priority? {
        switch text.lowercased() {
        case "high", "1": return .high
        case "medium", "2": return .medium
        case "low", "3": return .low
        default: return nil
        }
    }

    /// `today`, `tomorrow`, a weekday (`mon` … `sunday`: the next such day after today), `+3d`,
    /// `+2w`, `+1m`, `+1y`, or `2026-12-01`; each optionally followed by `T18:00`.
    public static func due(_ when: String, today: DueDate) -> DueDate? {
        var day = Substring(when.lowercased()), time: (Int, Int)?
        if let t = day.lastIndex(of: "t"), t != day.startIndex, day[day.index(after: t)...].contains(":") {
            let clock = day[day.index(after: t)...].split(separator: ":")
            guard clock.count == 2, clock[0].count == 2, clock[1].count == 2, let h = Int(clock[0]), let m = Int(clock[1]) else { return nil }
            time = (h, m)
            day = day[..<t]
        }
        guard let date = Self.day(String(day), today: today.dayOnly) else { return nil }
        guard let (hour, minute) = time else { return date }
        return DueDate(year: date.year, month: date.month, day: date.day, hour: hour, minute: minute)
    }

    private static let weekdays = ["mon": 1, "monday": 1, "tue": 2, "tues": 2, "tuesday": 2, "wed": 3, "wednesday": 3,
                                   "thu": 4, "thur": 4, "thurs": 4, "thursday": 4, "fri": 5, "friday": 5,
                                   "sat": 6, "saturday": 6, "sun": 7, "sunday": 7]

    private static func day(_ text: String, today: DueDate) -> DueDate? {
        switch text {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        default: break
        }
        if let weekday = weekdays[text] {
            let ahead = (weekday - today.weekday + 7) % 7
            return today.adding(days: ahead == 0 ? 7 : ahead)
        }
        if text.hasPrefix("+"), let unit = text.last, let count = Int(text.dropFirst().dropLast()), (0...9999).contains(count) {
            switch unit {
            case "d": return today.adding(days: count)
            case "w": return today.adding(days: 7 * count)
            case "m": return today.adding(months: count)
            case "y": return today.adding(months: 12 * count)
            default: return nil
            }
        }
        return DueDate(text)
    }
}
