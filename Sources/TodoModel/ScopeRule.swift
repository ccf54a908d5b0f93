/// Which items a scope holds, as one rule read two ways: TodoKit's store query is built from it,
/// and `admits` tests an item in memory (the test suite's in-memory store), so Today's, Upcoming's
/// and the Inbox's rules are written here only.
public struct ScopeRule: Sendable, Equatable {
    /// Which items by completion.
    public enum Completion: Sendable, Equatable {
        case open, complete, either
    }

    /// Which items by list.
    public enum Lists: Sendable, Equatable {
        case any
        /// One list's.
        case one(id: String)
        /// Those without a list or with one not among these ids (deleted on another device): the
        /// Inbox's, so an item is never invisible.
        case noneOf(ids: [String])
    }

    /// Which items by completion.
    public var completion: Completion
    /// Which items by list.
    public var lists: Lists
    /// Only items with a due date.
    public var needsDue = false
    /// Only items due after this (a due date's text; day-only and timed texts compare in day order).
    public var dueAfter: String?
    /// Only items due at this or before.
    public var dueBy: String?

    /// The rule of `scope` in `context`; `showCompleted` lets completed items in where the scope
    /// leaves that to the person (All, the Inbox, a list).
    public init(scope: ListScope, context: ScopeContext, showCompleted: Bool) {
        completion = showCompleted ? .either : .open
        lists = .any
        switch scope {
        case .all: break
        case .completed: completion = .complete
        case .list(let id, _): lists = .one(id: id)
        case .inbox: lists = .noneOf(ids: context.listIds)
        case .today:
            (completion, needsDue) = (.open, true)
            dueBy = context.today.map(Self.endOf)
        case .upcoming:
            (completion, needsDue) = (.open, true)
            if let today = context.today { (dueAfter, dueBy) = Self.weekAfter(today) }
        }
    }

    /// Whether `item` is in the scope.
    public func admits(_ item: TodoItem) -> Bool {
        switch completion {
        case .open: if item.complete { return false }
        case .complete: if !item.complete { return false }
        case .either: break
        }
        switch lists {
        case .any: break
        case .one(let id): if item.listId != id { return false }
        case .noneOf(let ids): if let listId = item.listId, ids.contains(listId) { return false }
        }
        guard let due = item.due?.text else { return !needsDue && dueAfter == nil && dueBy == nil }
        return (dueAfter.map { due > $0 } ?? true) && (dueBy.map { due <= $0 } ?? true)
    }

    /// The last due value of a day as text: the day alone and the day with any time sort before it.
    public static func endOf(_ day: DueDate) -> String { day.dayOnly.text + "T99" }

    /// Upcoming's bounds from `today`: after today, and at most 7 days on.
    public static func weekAfter(_ today: DueDate) -> (after: String, by: String) {
        (endOf(today), endOf(today.adding(days: 7) ?? DueDate.last))
    }
}
