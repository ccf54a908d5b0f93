import TodoModel
/// What a list row shows of an item besides its text, in order: tags, priority, due, and the
/// start of an item still waiting for it. Each badge
/// says what it is, so the renderer can colour it (overdue red, today highlighted).
public struct ItemBadge: Sendable, Equatable {
    /// What kind of badge, for its style.
    public enum Kind: Sendable, Equatable { case progress, tag, priority(Priority), overdue, dueToday, due, waiting, reminded }
    /// The words shown.
    public var text: String
    public var kind: Kind

    /// The mark of an item whose reminder came due, until it is opened.
    public static let reminded = ItemBadge(text: "reminder", kind: .reminded)

    /// A parent's "2/5": how many of its own subtasks are done.
    public static func progress(_ progress: SubtaskProgress) -> ItemBadge { ItemBadge(text: progress.text, kind: .progress) }

    /// The badges of an item on `today` (nil: the day is not known yet, so dates show as dates).
    public static func of(_ item: TodoItem, today: DueDate?) -> [ItemBadge] {
        var badges = item.tags.sorted().map { ItemBadge(text: "#" + $0, kind: .tag) }
        if let priority = item.priority {
            badges.append(ItemBadge(text: ["high": "!!!", "medium": "!!", "low": "!"][priority.rawValue]!, kind: .priority(priority)))
        }
        if let due = item.due {
            let kind: Kind = today.map { due.dayOnly < $0 && !item.complete ? .overdue : due.dayOnly == $0 ? .dueToday : .due } ?? .due
            badges.append(ItemBadge(text: words(for: due, today: today), kind: kind))
        }
        if let start = item.start, let today, start.dayOnly > today {
            badges.append(ItemBadge(text: "starts " + words(for: start, today: today), kind: .waiting))
        }
        return badges
    }

    private static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `today`, `tomorrow`, `yesterday`, a weekday within the coming week, `Dec 1` this year, else
    /// the date; then the time, if any.
    public static func words(for due: DueDate, today: DueDate?) -> String {
        let day = due.dayOnly
        var words: String
        if let today, day == today {
            words = "today"
        } else if let today, day == today.adding(days: 1) {
            words = "tomorrow"
        } else if let today, day == today.adding(days: -1) {
            words = "yesterday"
        } else if let today, day > today, day < today.adding(days: 7) ?? DueDate.last {
            words = weekdayNames[day.weekday - 1]
        } else if let today, day.year == today.year {
            words = "\(monthNames[day.month - 1]) \(day.day)"
        } else {
            words = day.text
        }
        if let time = due.time { words += String(format: " %02d:%02d", time.hour, time.minute) }
        return words
    }
}
