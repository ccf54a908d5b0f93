import OfflineSync
import TableProtocol
import TodoModel

/// What `todo list` prints: open items that have started (or every item), narrowed to a list, a
/// tag, today or the next 7 days (where items waiting for their start are), in the task order (due, priority, text) or another (`sort`). It is read from the store a chunk at a
/// time (`ListingStore.forEachChunk(of:)`), so a million items print in bounded memory.
public struct ItemListing: Sendable, Equatable {
    /// Which list's items.
    public enum List: Sendable, Equatable {
        /// Items without a list, or whose list is gone.
        case inbox
        /// The items of the list with this id.
        case list(id: String)
    }

    /// Only one list's items (nil: every list's, and the Inbox's).
    public var list: List?
    /// Only items with this tag (lower-cased).
    public var tag: String?
    /// Only items due today or earlier.
    public var dueByToday = false
    /// Only items due after today and at most 7 days on.
    public var dueInNextWeek = false
    /// Completed items too.
    public var includeCompleted = false
    /// Their order (`todo list --sort`).
    public var sort = ListSort.standard
    /// Only the items meeting this question (`todo list QUERY`); one that asks `is:done` or
    /// `is:open` decides completion itself.
    public var question: ItemQuery?

    /// A listing of every open item.
    public init(list: List? = nil, tag: String? = nil, dueByToday: Bool = false, dueInNextWeek: Bool = false, includeCompleted: Bool = false) {
        (self.list, self.tag, self.dueByToday, self.dueInNextWeek, self.includeCompleted) = (list, tag, dueByToday, dueInNextWeek, includeCompleted)
    }

    /// `query` narrowed to the listing and put in its order. `lists`: the lists that exist (an
    /// item of any other list is in the Inbox).
    func query(_ query: SyncQuery, today: DueDate, lists: [TodoList]) -> SyncQuery {
        var query = query
        let listIds = lists.map(\.id)
        if let question {
            query = ListQuery.filter(query, question: question, context: ScopeContext(today: today, lists: lists))
        }
        if !includeCompleted {
            if question?.asksCompletion != true { query = query.filter(Field("complete") == false) }
            // A question finds items waiting for their start too, as the list's filter does.
            if !dueInNextWeek, question == nil { query = query.filter(ListQuery.startedBy(today)) }
        }
        switch list {
        case .inbox?:
            query = ListQuery.filter(query, scope: .inbox, context: ScopeContext(listIds: listIds), showCompleted: true)
        case .list(let id)?:
            query = query.filter(Field("listId") == .string(id))
        case nil:
            break
        }
        if let tag { query = query.filter(ListQuery.hasTag(tag)) }
        // The same days as the Today and Upcoming views.
        if dueByToday { query = query.filter(ListQuery.dueBy(today)) }
        if dueInNextWeek { query = query.filter(ListQuery.dueInTheWeekAfter(today)) }
        return ListQuery.order(query, by: sort)
    }
}

/// One item as `todo list` prints it.
public struct ListedItem: Sendable, Equatable {
    /// The item.
    public var item: TodoItem
    /// The list it shows in; nil: the Inbox.
    public var list: TodoList?
    /// That list as commands name it (`ListEntry.commandName`): `Groceries`, or `Groceries@ann`
    /// beside a list of one's own of that name.
    public var listName: String?
    /// A local change to it waits to be sent.
    public var isPending: Bool
}
