/// Which items a scope holds, as one rule read two ways (an item whose start is after today is
/// held back from all but Upcoming, which shows it, and Completed): TodoKit's store query is built from it,
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
    /// Items that start on this day pass the due conditions too (Today's: an item joins it on
    /// its start day).
    public var orStartsOn: DueDate?
    /// Items held back (starting after this day) pass the due conditions too (Upcoming's).
    public var orStartsAfter: DueDate?
    /// Only items not held back: no start, or one on this day or before (nil: every start).
    public var startsBy: DueDate?
    /// A kept view's question (`.saved`), read on `context.today` with its lists; `matchesNothing`
    /// when its text is no question.
    public var question: ItemQuery?
    public var matchesNothing = false
    private var context = ScopeContext()

    /// The rule of `scope` in `context`; `showCompleted` lets completed items in where the scope
    /// leaves that to the person (All, the Inbox, a list), and `showHeldBack` the items whose
    /// start is after today, which every scope but Upcoming and Completed holds back.
    public init(scope: ListScope, context: ScopeContext, showCompleted: Bool, showHeldBack: Bool = false) {
        completion = showCompleted ? .either : .open
        lists = .any
        let today = context.today
        startsBy = showHeldBack ? nil : today
        switch scope {
        case .all: break
        case .completed:
            completion = .complete
            startsBy = nil
        case .list(let id, _): lists = .one(id: id)
        case .inbox: lists = .noneOf(ids: context.listIds)
        case .today:
            (completion, needsDue) = (.open, true)
            dueBy = today.map(Self.endOf)
            orStartsOn = today
        case .upcoming:
            (completion, needsDue) = (.open, true)
            if let today { (dueAfter, dueBy) = Self.weekAfter(today) }
            orStartsAfter = today
            startsBy = nil
        case .saved(let view):
            // As the filter: items waiting for their start are found too, and a question that
            // asks is:done or is:open decides completion.
            question = view.question
            matchesNothing = question == nil
            if question?.asksCompletion == true { completion = .either }
            startsBy = nil
            self.context = context
        }
    }

    /// Whether `item` is in the scope.
    public func admits(_ item: TodoItem) -> Bool {
        if matchesNothing { return false }
        if let question, !question.matches(item, today: context.today, listIds: context.listsByName) { return false }
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
        if let startsBy, let start = item.start?.text, start > Self.endOf(startsBy) { return false }
        if let day = orStartsOn, let start = item.start?.text, start >= day.dayOnly.text, start <= Self.endOf(day) { return true }
        if let day = orStartsAfter, let start = item.start?.text, start > Self.endOf(day) { return true }
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
