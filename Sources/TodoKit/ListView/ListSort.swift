/// How a view orders its items. Each view remembers its own on the device (`SortMemory`).
/// `todo list --sort` names them by their raw values.
public enum ListSort: String, Sendable, Hashable, CaseIterable {
    /// The task order: due (none last), priority (high first), text. The default.
    case due
    /// The person's own order (`TodoItem.order`), items never placed after the rest in the task order.
    case manual
    /// Priority (high first, none last), then due, then text.
    case priority
    /// When the server first stored it, oldest first (items not yet synced last).
    case created
    /// Text, as people sort it (numbers by value), then due.
    case text

    /// How the title bar and notices name it ("sorted by hand").
    public var title: String {
        switch self {
        case .manual: return "by hand"
        case .due: return "by due date"
        case .priority: return "by priority"
        case .created: return "by date added"
        case .text: return "by text"
        }
    }

    /// The sort every view starts with.
    public static let standard = ListSort.due

    /// The next sort in the cycle (`o`): due, by hand, priority, created, text, due…
    public var next: ListSort {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// The column names it orders by, in order (the id breaks the last tie).
    var columns: [String] {
        switch self {
        case .manual: return ["order", "due", "priority", "text"]
        case .due: return ["due", "priority", "text"]
        case .priority: return ["priority", "due", "text"]
        case .created: return ["createdAt", "due", "priority", "text"]
        case .text: return ["text", "due", "priority"]
        }
    }
}
