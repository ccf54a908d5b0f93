/// When an item reminds: at a wall time (`2026-12-01T09:00`, local as the person wrote it), or
/// an offset before its due time (`-1h`, `-30m`, `-2d`; with no due date, before its start).
/// Kept in the `reminders` column as these texts, a space apart, and merged as a set of words,
/// so two devices that each add one keep both.
public enum Reminder: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// At this time.
    case at(DueDate)
    /// This many minutes before the due time (0: at it).
    case before(minutes: Int)

    /// The most minutes an offset may be: a year.
    public static let maximumMinutes = 366 * 24 * 60

    /// Reads a reminder's stored text: `-1h`, `-30m`, `-2d`, `-1w`, or a date and time; a day
    /// alone is 09:00 that day.
    public init?(_ text: String) {
        if text.hasPrefix("-") {
            let body = text.dropFirst()
            guard let unit = body.last, let count = Int(body.dropLast()), count >= 0, body.dropLast().allSatisfy(\.isASCII) else { return nil }
            let factor: Int
            switch unit {
            case "m": factor = 1
            case "h": factor = 60
            case "d": factor = 1_440
            case "w": factor = 10_080
            default: return nil
            }
            guard count <= Self.maximumMinutes / factor else { return nil }
            self = .before(minutes: count * factor)
            return
        }
        guard let date = DueDate(text) else { return nil }
        self = .at(Self.timed(date))
    }

    /// Reads a reminder as a person types it: an offset, or `--due`'s words (`tomorrow T09:00`,
    /// `fri`, `2026-12-01T09:00`; a day alone is 09:00). Relative days count from `today`.
    public init?(typed text: String, today: DueDate?) {
        let words = text.filter { !$0.isWhitespace }
        if words.hasPrefix("-") {
            self.init(words.lowercased())
            return
        }
        guard let date = QuickAdd.due(typed: words, today: today) else { return nil }
        self = .at(Self.timed(date))
    }

    /// A day alone reminds at 09:00.
    private static func timed(_ date: DueDate) -> DueDate {
        date.time == nil ? DueDate(year: date.year, month: date.month, day: date.day, hour: 9)! : date
    }

    /// The stored text: the largest whole unit for an offset.
    public var text: String {
        switch self {
        case .at(let date): return date.text
        case .before(let minutes):
            for (unit, size) in [("w", 10_080), ("d", 1_440), ("h", 60)] where minutes > 0 && minutes % size == 0 {
                return "-\(minutes / size)\(unit)"
            }
            return "-\(minutes)m"
        }
    }

    public var description: String { text }

    public static func < (a: Reminder, b: Reminder) -> Bool { a.text < b.text }

    /// When it comes due on `item`, as a wall time: its time, or its offset before the item's
    /// due time (its start, without a due date; a day alone counts from 09:00). Nil for an offset
    /// on an item with neither.
    public func time(on item: TodoItem) -> DueDate? {
        switch self {
        case .at(let time): return time
        case .before(let minutes):
            guard let anchor = item.due ?? item.start else { return nil }
            return Self.timed(anchor).adding(minutes: -minutes)
        }
    }

    /// The reminder on an instance `days` days after this one's (a repeat's next): a time moves
    /// with it, an offset stays.
    func shifted(days: Int) -> Reminder? {
        switch self {
        case .at(let date): return date.adding(days: days).map(Reminder.at)
        case .before: return self
        }
    }

    /// The column's text of a set of reminders: sorted, a space apart; nil for none.
    public static func text(_ reminders: Set<Reminder>) -> String? {
        reminders.isEmpty ? nil : reminders.map(\.text).sorted().joined(separator: " ")
    }

    /// The reminders a column's text holds; words that are no reminder are dropped.
    public static func set(fromText text: String?) -> Set<Reminder> {
        Set((text ?? "").split(whereSeparator: \.isWhitespace).compactMap { Reminder(String($0)) })
    }
}
