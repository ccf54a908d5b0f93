import Foundation
import OfflineSync
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
    /// The parents whose subtasks show (every other parent is folded).
    public var unfolded: Set<String> = []
    /// Top-level rows folded whose subtasks are read still, as if unfolded, at the top level only
    /// (`TodoListViewModel.keptFolded`).
    public var keptFolded: Set<String> = []
    /// The rows' order.
    public var sort = ListSort.standard
    /// Which reading of the list asked (`RowWindow`): a window its live query sent before it was
    /// replaced, still on its way, is not taken for the new one's.
    public var reading = 0
    /// The top-level row the screen starts in, when known, and which of the subtask rows shown
    /// under it is first on screen (0: the row itself): an unfolded parent's subtasks are read as
    /// items only around the screen (`SubtaskRun`).
    public var screenTop: (root: String, subtask: Int)? {
        get { topRoot.map { ($0, topSubtask) } }
        set { (topRoot, topSubtask) = (newValue?.root, newValue?.subtask ?? 0) }
    }
    private var topRoot: String?
    private var topSubtask = 0

    /// A window reads this many screens of rows (`limit`), `screensAbove` of them above the
    /// screen's top (`RowWindow.request`), and as many of a long run of subtasks
    /// (`ListingStore.subtaskSpans`).
    static let screensRead = 6
    /// Screens read above the screen's top.
    static let screensAbove = 2
    /// Rows on a screen, as this request's `limit` says.
    var screen: Int { max(1, limit / Self.screensRead) }

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

    /// The same list (filter, scope, order), whatever rows it covers.
    func sameList(as other: ListWindowRequest) -> Bool {
        context == other.context && sameView(as: other)
    }

    /// The same list as the person chose it (filter, scope, order), whatever day it is and lists
    /// exist: its rows may stay on screen while it is read again.
    func sameView(as other: ListWindowRequest) -> Bool {
        (filterText, showCompleted, showHeldBack, scope, sort) == (other.filterText, other.showCompleted, other.showHeldBack, other.scope, other.sort)
    }
}

/// Rows of the list from `request.offset` (counted from the list's end for a `fromEnd` request).
public struct ListWindow: Sendable, Equatable {
    /// What was asked for.
    public var request: ListWindowRequest
    /// The rows at the top level.
    public var items: [TodoItem]
    /// The rows shown under each unfolded row of `items` (by its id): its subtasks at every depth, in outline order.
    public var subtasks: [String: SubtaskRun]
    /// How many of their own subtasks are done, for the rows (top level or not) that are read and have any.
    public var progress: [String: SubtaskProgress]

    /// Rows read for a request.
    public init(request: ListWindowRequest, items: [TodoItem], subtasks: [String: SubtaskRun] = [:],
                progress: [String: SubtaskProgress] = [:]) {
        self.request = request
        self.items = items
        self.subtasks = subtasks
        self.progress = progress
    }

    /// Rows read for a request, each unfolded row's subtasks all read.
    public init(request: ListWindowRequest, items: [TodoItem], subtaskRows: [String: [SubtaskRow]], progress: [String: SubtaskProgress] = [:]) {
        self.init(request: request, items: items, subtasks: subtaskRows.mapValues(SubtaskRun.init(rows:)), progress: progress)
    }

    /// The subtask rows read under each unfolded row, in outline order (those away from the
    /// screen under a long run are not read).
    public var subtaskRows: [String: [SubtaskRow]] { subtasks.mapValues(\.readRows) }

    /// True when the window got fewer rows than it asked for: it reaches the list's end (its
    /// start, for a window read from the end).
    public var isShort: Bool { items.count < request.limit }
}

/// A subtask shown under an unfolded parent.
public struct SubtaskRow: Sendable, Equatable {
    /// The subtask.
    public var item: TodoItem
    /// Levels below its top-level row (1 for that row's own subtasks).
    public var depth: Int

    /// A row at a depth.
    public init(item: TodoItem, depth: Int) { (self.item, self.depth) = (item, depth) }
}

/// The rows shown under an unfolded top-level row: every one by id and depth, and as an item
/// only those around the screen, so unfolding a parent of thousands reads a screenful of them.
public struct SubtaskRun: Sendable, Equatable {
    /// Every row shown under the top-level row, in outline order, its item read or not: what a
    /// move by hand or a fold needs of a row off screen is here.
    public var slots: [SubtaskSlot]
    /// The items read, by key: one id may stand in two lists (spaces), each its own item.
    public var items: [ItemKey: TodoItem]

    /// A run of rows and the items read of them.
    public init(slots: [SubtaskSlot], items: [ItemKey: TodoItem]) { (self.slots, self.items) = (slots, items) }

    /// A run whose rows are all read.
    public init(rows: [SubtaskRow]) {
        self.init(slots: rows.map { SubtaskSlot(id: $0.item.id, depth: $0.depth, space: $0.item.space) },
                  items: Dictionary(rows.map { ($0.item.key, $0.item) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Rows shown under the top-level row.
    public var count: Int { slots.count }

    /// The row at `index` (from 0), when its item is read.
    public func row(at index: Int) -> SubtaskRow? {
        guard slots.indices.contains(index), let item = items[slots[index].key] else { return nil }
        return SubtaskRow(item: item, depth: slots[index].depth)
    }

    /// The rows read, in outline order.
    public var readRows: [SubtaskRow] { slots.indices.compactMap(row(at:)) }
}

/// Where a subtask row stands under its top-level row, and which item it is.
public struct SubtaskSlot: Sendable, Equatable {
    /// The subtask's id.
    public var id: String
    /// Levels below the top-level row (1 for its own subtasks).
    public var depth: Int
    /// The subtask's space (nil: the account's own namespace).
    public var space: String?

    /// A slot.
    public init(id: String, depth: Int, space: String? = nil) { (self.id, self.depth, self.space) = (id, depth, space) }

    /// The subtask's key on the device.
    public var key: ItemKey { ItemKey(space: space, id: id) }
}
