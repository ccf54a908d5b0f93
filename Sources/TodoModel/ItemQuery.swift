/// A question about items, in quick add's words: what the list's `/` filter, `todo list QUERY`,
/// `todo edit --where` and a saved view read.
///
/// Words are conditions, all of which an item meets: `+List`, `#tag` (or `@tag`), `!high`,
/// `due:WHEN` (that day; `due:today`, `due:overdue`, `due:none`), `due<WHEN`, `due>WHEN`, the
/// same for `start`, `is:done`, `is:open`, `has:notes` (or `due`, `start`, `tags`, `reminders`),
/// and `-` before any of them (or a word) for its opposite. `or` joins alternatives. Every other
/// word is text the item contains (the words of one alternative as one phrase, as typed);
/// `"re:meeting"` in double quotes is text too. A word that looks like a condition but is none
/// (`due:someday`, `is:late`, `colour:red`) is an error that names it, never silently text.
/// WHEN is `due`'s words (`today`, `fri`, `+3d`, `2026-12-01`), read against the day the
/// question is asked, so a kept question stays relative.
public struct ItemQuery: Sendable, Hashable {
    /// Alternatives, any of which an item may meet: each a list of conditions it meets all of.
    public var alternatives: [[Condition]]

    /// One condition.
    public indirect enum Condition: Sendable, Hashable {
        /// The text contains this (lower-cased).
        case text(String)
        /// In the list of this name (letter case aside).
        case list(String)
        /// Carries this tag (lower-cased).
        case tag(String)
        case priority(Priority)
        case due(DateTest)
        case start(DateTest)
        /// Done (true) or open (false).
        case done(Bool)
        /// Has a value in this field.
        case has(Field)
        /// The opposite.
        case not(Condition)
    }

    /// A test of a date field.
    public enum DateTest: Sendable, Hashable {
        /// On the day WHEN names.
        case on(String)
        /// Before that day.
        case before(String)
        /// After that day.
        case after(String)
        /// Before today.
        case overdue
        /// No date.
        case none
    }

    /// The fields `has:` names.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case notes, due, start, tags, reminders
    }

    /// Reads a question; throws naming the first word that is no condition.
    public init(_ text: String) throws(ItemQueryError) {
        var alternatives: [[Condition]] = [[]]
        var phrase: [String] = []
        func endAlternative() {
            if !phrase.isEmpty { alternatives[alternatives.count - 1].append(.text(phrase.joined(separator: " ").lowercased())) }
            phrase = []
        }
        for token in try Self.tokens(text) {
            switch token {
            case .quoted(let words): phrase.append(words)
            case .word(let word) where word.lowercased() == "or":
                endAlternative()
                guard !alternatives[alternatives.count - 1].isEmpty else { throw ItemQueryError(word: word, "“or” needs a condition on each side") }
                alternatives.append([])
            case .word(let word):
                if let condition = try Self.condition(word) { alternatives[alternatives.count - 1].append(condition) } else { phrase.append(word) }
            }
        }
        endAlternative()
        if alternatives.count > 1, alternatives.last?.isEmpty == true { throw ItemQueryError(word: "or", "“or” needs a condition on each side") }
        self.alternatives = alternatives.allSatisfy(\.isEmpty) ? [] : alternatives
    }

    /// True for a question that asks nothing (every item meets it).
    public var isEmpty: Bool { alternatives.isEmpty }

    /// Whether it asks about completion (`is:done`, `is:open`): then it, not the view, decides
    /// whether completed items show.
    public var asksCompletion: Bool {
        alternatives.joined().contains { condition in
            var condition = condition
            while case .not(let inner) = condition { condition = inner }
            if case .done = condition { return true }
            return false
        }
    }

    /// Whether `item` meets it on `today` (unknown: a relative day names none, and nothing is
    /// overdue), with the lists' ids by lower-cased name.
    public func matches(_ item: TodoItem, today: DueDate?, listIds: [String: String]) -> Bool {
        isEmpty || alternatives.contains { $0.allSatisfy { Self.meets(item, $0, today: today, listIds: listIds) } }
    }

    private static func meets(_ item: TodoItem, _ condition: Condition, today: DueDate?, listIds: [String: String]) -> Bool {
        switch condition {
        case .text(let text): return item.text.lowercased().contains(text)
        case .list(let name): return item.listId != nil && item.listId == listIds[name.lowercased()]
        case .tag(let tag): return item.tags.contains(tag)
        case .priority(let priority): return item.priority == priority
        case .due(let test): return test.holds(for: item.due, today: today)
        case .start(let test): return test.holds(for: item.start, today: today)
        case .done(let done): return item.complete == done
        case .has(let field):
            switch field {
            case .notes: return !item.notes.isEmpty
            case .due: return item.due != nil
            case .start: return item.start != nil
            case .tags: return !item.tags.isEmpty
            case .reminders: return !item.reminders.isEmpty
            }
        case .not(let inner): return !meets(item, inner, today: today, listIds: listIds)
        }
    }

    // MARK: Reading words

    private enum Token { case word(String), quoted(String) }

    /// Words split at white space, a double-quoted run kept whole (a quote inside a word ends the
    /// word before it).
    private static func tokens(_ text: String) throws(ItemQueryError) -> [Token] {
        var tokens: [Token] = []
        var current = "", quoted = false
        for character in text {
            if character == "\"" {
                if quoted {
                    tokens.append(.quoted(current))
                } else if !current.isEmpty {
                    tokens.append(.word(current))
                }
                current = ""
                quoted.toggle()
            } else if !quoted, character.isWhitespace {
                if !current.isEmpty { tokens.append(.word(current)) }
                current = ""
            } else {
                current.append(character)
            }
        }
        guard !quoted else { throw ItemQueryError(word: "\"" + current, "a quote is not closed") }
        if !current.isEmpty { tokens.append(.word(current)) }
        return tokens
    }

    /// The condition a word states, nil for a word of text; throws for a word that looks like a
    /// condition but is none.
    static func condition(_ word: String) throws(ItemQueryError) -> Condition? {
        if word.hasPrefix("-"), word.count > 1 {
            let rest = String(word.dropFirst())
            return .not(try condition(rest) ?? .text(rest.lowercased()))
        }
        let rest = String(word.dropFirst())
        switch word.first {
        case "+" where QuickAdd.isName(rest): return .list(rest)
        case "#" where QuickAdd.isName(rest), "@" where QuickAdd.isName(rest): return .tag(rest.lowercased())
        // A mark alone begins a condition not yet written (`"#"` finds the character itself).
        case "+" where rest.isEmpty: throw ItemQueryError(word: word, "a list is +Name")
        case "#" where rest.isEmpty, "@" where rest.isEmpty: throw ItemQueryError(word: word, "a tag is #name")
        case "!":
            guard let priority = QuickAdd.priority(rest) else { throw ItemQueryError(word: word, "a priority is !high, !medium or !low") }
            return .priority(priority)
        default: break
        }
        // key:value, key<value, key>value with a key of letters.
        guard let at = word.firstIndex(where: { $0 == ":" || $0 == "<" || $0 == ">" }), at != word.startIndex,
              word[..<at].allSatisfy(\.isLetter) else { return nil }
        let key = word[..<at].lowercased(), operation = word[at], value = String(word[word.index(after: at)...])
        switch key {
        case "due", "start":
            let test = try dateTest(operation, value, word: word)
            return key == "due" ? .due(test) : .start(test)
        case "is" where operation == ":":
            switch value.lowercased() {
            case "done", "complete", "completed": return .done(true)
            case "open": return .done(false)
            default: throw ItemQueryError(word: word, "is: takes done or open")
            }
        case "has" where operation == ":":
            guard let field = Field(rawValue: value.lowercased()) else {
                throw ItemQueryError(word: word, "has: takes \(Field.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .has(field)
        default:
            throw ItemQueryError(word: word, "not a condition (due:, start:, is:, has:, due< and due>, +List, #tag, !high; \"quote\" text)")
        }
    }

    /// Any day, to check that a word names one (which day it names is read when asked).
    private static let someDay = DueDate(year: 2026, month: 1, day: 1)!

    private static func dateTest(_ operation: Character, _ value: String, word: String) throws(ItemQueryError) -> DateTest {
        let lowered = value.lowercased()
        if operation == ":" {
            if lowered == "overdue" { return .overdue }
            if lowered == "none" { return .none }
        }
        guard QuickAdd.due(typed: lowered, today: someDay) != nil else {
            throw ItemQueryError(word: word, "not a day (today, tomorrow, fri, +3d, 2026-12-01\(operation == ":" ? ", overdue, none" : ""))")
        }
        switch operation {
        case "<": return .before(lowered)
        case ">": return .after(lowered)
        default: return .on(lowered)
        }
    }
}

extension ItemQuery.DateTest {
    /// The day a word names, counted from `today` (unknown: only a date names one).
    public func day(_ word: String, today: DueDate?) -> DueDate? { QuickAdd.due(typed: word, today: today)?.dayOnly }

    /// Whether a field's value passes, on `today`.
    func holds(for value: DueDate?, today: DueDate?) -> Bool {
        switch self {
        case .none: return value == nil
        case .overdue: return value.flatMap { v in today.map { v.dayOnly < $0.dayOnly } } ?? false
        case .on(let word): return value != nil && value?.dayOnly == day(word, today: today)
        case .before(let word): return value.flatMap { v in day(word, today: today).map { v.dayOnly < $0 } } ?? false
        case .after(let word): return value.flatMap { v in day(word, today: today).map { v.dayOnly > $0 } } ?? false
        }
    }
}

/// A word of a question that is no condition, and why.
public struct ItemQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The word, as typed.
    public var word: String
    /// What is wrong with it.
    public var reason: String

    init(word: String, _ reason: String) { (self.word, self.reason) = (word, reason) }

    public var description: String { "“\(word)”: \(reason)" }
}
