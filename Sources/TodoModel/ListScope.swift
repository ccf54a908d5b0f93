/// Which items the list shows: every open item, the Inbox, Today, Upcoming, one list, or the
/// completed ones. The sidebar (or the `v` switcher) chooses it.
public enum ListScope: Sendable, Hashable {
    /// Every open item (completed ones too with `c`).
    case all
    /// Items without a list, or whose list is gone.
    case inbox
    /// Open items due today or earlier, overdue first.
    case today
    /// Open items due in the next 7 days (after today).
    case upcoming
    /// One list's items.
    case list(id: String, name: String)
    /// Completed items.
    case completed
    /// The items a kept question finds (`SavedView`).
    case saved(SavedView)

    /// Its name on screen.
    public var title: String {
        switch self {
        case .all: return "All"
        case .inbox: return TodoList.inboxName
        case .today: return "Today"
        case .upcoming: return "Upcoming"
        case .list(_, let name): return name
        case .completed: return "Completed"
        case .saved(let view): return view.name
        }
    }

    /// Every scope, in the sidebar's order, for these lists and kept views.
    public static func every(lists: [TodoList], views: [SavedView] = []) -> [ListScope] {
        [.all, .inbox, .today, .upcoming] + lists.map { .list(id: $0.id, name: $0.name) } + views.map(ListScope.saved) + [.completed]
    }

    /// A name that stays the same for the view across runs (a list's by its id): what the
    /// device remembers the view's sort under.
    public var memoryKey: String {
        switch self {
        case .all: return "all"
        case .inbox: return "inbox"
        case .today: return "today"
        case .upcoming: return "upcoming"
        case .list(let id, _): return "list:" + id
        case .completed: return "completed"
        case .saved(let view): return "view:" + view.id
        }
    }

    /// Whether the `c` key (completed items too) applies.
    public var showsCompletedOnRequest: Bool {
        switch self {
        case .all, .inbox, .list: return true
        case .today, .upcoming, .completed, .saved: return false
        }
    }
}

/// What a scope's query needs beyond the scope: today's date and the ids of the lists that
/// exist (the Inbox also holds items of a list that is gone).
public struct ScopeContext: Sendable, Hashable {
    /// Today, once known.
    public var today: DueDate?
    /// Ids of the lists that exist.
    public var listIds: [String]
    /// The lists' ids by lower-cased name (the filter's `+List`).
    public var listsByName: [String: String]

    /// A context.
    public init(today: DueDate? = nil, listIds: [String] = [], listsByName: [String: String] = [:]) {
        self.today = today
        self.listIds = listIds
        self.listsByName = listsByName
    }

    /// The context for these lists.
    public init(today: DueDate?, lists: [TodoList]) {
        self.init(today: today, listIds: lists.map(\.id),
                  listsByName: Dictionary(lists.map { ($0.name.lowercased(), $0.id) }, uniquingKeysWith: { first, _ in first }))
    }
}
