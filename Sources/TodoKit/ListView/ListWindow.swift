import Foundation
import TodoModel

/// What part of the list to load.
public struct ListWindowRequest: Sendable, Hashable {
    /// Text the item must contain (case-insensitive); empty for all.
    public var filterText: String
    /// Whether completed items are shown.
    public var showCompleted: Bool
    /// Whether items waiting for their start date are shown.
    public var showHeldBack: Bool
    /// First row; counted from the list's end when `fromEnd`.
    public var offset: Int
    /// How many rows.
    public var limit: Int
    /// Which items.
    public var scope: ListScope
    /// What the scope's query needs.
    public var context: ScopeContext
    /// The rows `offset ..< offset + limit` from the list's end (still in list order): a window
    /// near the end of a long list reads from there, walking only the rows after it.
    public var fromEnd = false

    /// Creates a request.
    public init(filterText: String = "", showCompleted: Bool = false, showHeldBack: Bool = false, offset: Int = 0, limit: Int = 100,
                scope: ListScope = .all, context: ScopeContext = ScopeContext()) {
        self.filterText = filterText
        self.showCompleted = showCompleted
        self.showHeldBack = showHeldBack
        self.offset = offset
        self.limit = limit
        self.scope = scope
        self.context = context
    }

    /// The same list (filter, scope), whatever rows it covers.
    func sameList(as other: ListWindowRequest) -> Bool {
        (filterText, showCompleted, showHeldBack, scope, context) == (other.filterText, other.showCompleted, other.showHeldBack, other.scope, other.context)
    }
}

/// Rows of the list from `request.offset` (counted from the list's end for a `fromEnd` request).
public struct ListWindow: Sendable, Equatable {
    /// What was asked for.
    public var request: ListWindowRequest
    /// The rows.
    public var items: [TodoItem]

    /// Rows read for a request.
    public init(request: ListWindowRequest, items: [TodoItem]) {
        self.request = request
        self.items = items
    }

    /// True when the window got fewer rows than it asked for: it reaches the list's end (its
    /// start, for a window read from the end).
    public var isShort: Bool { items.count < request.limit }
}
