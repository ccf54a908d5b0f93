import OfflineSync
import TableProtocol
import TodoModel

/// The manual order: a move writes the moved item's key (`OrderKey`) between its new
/// neighbours', and nothing else, unless those neighbours have no keys of their own yet (items
/// never placed, which sort last: they are given keys in the order they show, once), share one
/// key (two devices' moves into one gap: the tie is split), or the gap is too narrow for a short
/// key (the neighbourhood is spread out again, wider each time until it fits). One transaction,
/// so one undo step.
extension ItemStore {
    /// Moves `item` to just after `lower` and before `upper` (nil: the start, or the end) among
    /// the items `view` holds, sorted manually. Answers how many rows were written.
    @discardableResult
    public func reorder(_ item: TodoItem, after lower: TodoItem?, before upper: TodoItem?, among view: SyncQuery) throws -> Int {
        try reorder(item, after: lower?.key, before: upper?.key, among: view)
    }

    /// The same, the neighbours named by key (read again in the move's transaction either way).
    @discardableResult
    public func reorder(_ item: TodoItem, after lower: ItemKey?, before upper: ItemKey?, among view: SyncQuery) throws -> Int {
        let moved = table.inSpace(item.space)
        guard let stored = try moved.read(id: item.id) else { throw SyncError(.invalidParameter, "The item no longer exists") }
        try store.spaces.requireWritable(listId: stored.listId, space: stored.space)
        let view = Reordering(view: view.filter(Field(SystemProperty.id.rawValue) != .string(stored.id)), moved: TodoItem(stored))
        return try table.untyped.transaction { writes in
            var plan = try view.plan(after: lower.flatMap { try writes.read(id: $0.id, space: $0.space).flatMap(TodoItem.init) },
                                     before: upper.flatMap { try writes.read(id: $0.id, space: $0.space).flatMap(TodoItem.init) },
                                     in: writes)
            if plan.keys.isEmpty, plan.movedKey.utf8.count > OrderKey.maximumLength { plan = try view.spreadOut(plan, in: writes) }
            for (row, key) in plan.keys + [(view.moved, plan.movedKey)] where row.order != key {
                try writes.update([SystemProperty.id.rawValue: .string(row.id), SharedSpace.column: row.space.map(JSONValue.string) ?? .null,
                                   "order": .string(key)])
            }
            return plan.keys.count { $0.0.order != $0.1 } + (view.moved.order == plan.movedKey ? 0 : 1)
        }
    }

    /// A move made in the list: among the items of the view on screen (the subtasks of the
    /// parent, for a subtask). Answers how many rows were written.
    @discardableResult
    public func reorder(_ move: ItemMove) throws -> Int {
        var view = store.listing.listQuery(move.view)
        if let parent = move.parent { view = view.filter(Field("parentId") == .string(parent)) }
        return try reorder(move.item, after: move.after, before: move.before, among: view)
    }

    /// Moves `item` within its own list's items (the Inbox's, without a list), sorted manually:
    /// before or after another item of that list, or to its top or bottom (`todo reorder`).
    @discardableResult
    public func reorder(_ item: TodoItem, to place: ReorderPlace) throws -> Int {
        let anchor: TodoItem? = switch place {
        case .before(let other), .after(let other): other
        case .top, .bottom: nil
        }
        let listId = (anchor ?? item).listId
        let view = table.query.filter(listId.map { Field("listId") == .string($0) } ?? (Field("listId") == nil))
        let others = try table.read(ListQuery.order(view, by: .manual).select([SystemProperty.id.rawValue, SharedSpace.column, "order"])).records
            .map(TodoItem.init).filter { !($0.id == item.id && $0.space == item.space) }
        switch place {
        case .top: return try reorder(item, after: nil, before: others.first, among: view)
        case .bottom: return try reorder(item, after: others.last, before: nil, among: view)
        case .before(let other), .after(let other):
            guard let index = others.firstIndex(where: { $0.id == other.id && $0.space == other.space }) else {
                throw SyncError(.invalidParameter, "“\(other.text)” is the item being moved")
            }
            let before: Bool = if case .before = place { true } else { false }
            let lower: TodoItem? = before ? (index > 0 ? others[index - 1] : nil) : others[index]
            let upper: TodoItem? = before ? others[index] : (index + 1 < others.count ? others[index + 1] : nil)
            return try reorder(item, after: lower, before: upper, among: view)
        }
    }
}

/// Where `todo reorder` puts an item in its list.
public enum ReorderPlace: Sendable, Equatable {
    case before(TodoItem), after(TodoItem), top, bottom
}

/// One move's reads and keys: the view (without the moved item) and what the move writes.
private struct Reordering {
    let view: SyncQuery
    let moved: TodoItem

    /// The keys a move writes: the moved item's, and those its neighbours need first.
    struct Plan {
        var keys: [(TodoItem, String)] = []
        var movedKey: String
        /// The neighbours the moved item stands between (nil: an end).
        var lower: TodoItem?
        var upper: TodoItem?
    }

    private var manual: SyncQuery { ListQuery.order(view, by: .manual) }

    private func items(_ query: SyncQuery, in writes: SyncTableTransaction) throws -> [TodoItem] {
        try writes.read(query).items.compactMap(TodoItem.init)
    }

    /// Rows read at a time while looking for the end of a run of unplaced items.
    private static let page = 500

    private static func key(_ item: TodoItem?) -> String? { item?.order.flatMap { OrderKey.isKey($0) ? $0 : nil } }

    func plan(after lower: TodoItem?, before upper: TodoItem?, in writes: SyncTableTransaction) throws -> Plan {
        if let lower, Self.key(lower) == nil {
            // After an item never placed: it and the unplaced items showing before it are placed
            // first, after the last placed one, in the order they show.
            // Read a page at a time up to `lower`: a move near the top of 100,000 unplaced items
            // reads a page, not all of them.
            var run: [TodoItem] = []
            let unplaced = manual.filter(Field("order") == nil)
            page: while true {
                let rows = try items(unplaced.offset(run.count).limit(Self.page), in: writes)
                for row in rows {
                    run.append(row)
                    if row.id == lower.id && row.space == lower.space { break page }
                }
                if rows.count < Self.page {
                    run.append(lower)  // not in the view: placed last
                    break
                }
            }
            var previous = try items(manual.filter(Field("order") != nil).reversed().limit(1), in: writes).first.flatMap(Self.key)
            var plan = Plan(movedKey: "", lower: lower, upper: upper)
            for item in run {
                guard let key = OrderKey.between(previous, nil) else { break }
                plan.keys.append((item, key))
                previous = key
            }
            plan.movedKey = OrderKey.between(previous, nil) ?? previous ?? OrderKey.between(nil, nil)!
            return plan
        }
        let low = Self.key(lower), high = Self.key(upper)
        if let key = OrderKey.between(low, high) { return Plan(movedKey: key, lower: lower, upper: upper) }
        // The neighbours share a key (or the view changed under the screen): the moved item goes
        // just after `lower`, and the items tied with it that showed after it move up past it.
        guard let lower, let low else { return Plan(movedKey: OrderKey.between(nil, nil)!, lower: nil, upper: upper) }
        let above = try items(manual.filter(Field("order") > .string(low)).limit(1), in: writes).first.flatMap(Self.key)
        let tied = try items(manual.filter(Field("order") == .string(low)), in: writes)
        let after = tied.drop { !($0.id == lower.id && $0.space == lower.space) }.dropFirst()
        guard let keys = OrderKey.spread(after.count + 1, between: low, and: above) else {
            return Plan(movedKey: OrderKey.between(low, nil) ?? low, lower: lower, upper: upper)
        }
        return Plan(keys: Array(zip(after, keys.dropFirst())), movedKey: keys[0], lower: lower, upper: upper)
    }

    /// Keys spread evenly over a neighbourhood of the move, `width` items each side, four times
    /// wider until each key is short (or the neighbourhood is the whole view).
    func spreadOut(_ plan: Plan, in writes: SyncTableTransaction) throws -> Plan {
        guard let low = Self.key(plan.lower) else { return plan }
        let high = Self.key(plan.upper)
        var width = 8
        while true {
            let below = try items(manual.filter(Field("order") <= .string(low)).reversed().limit(width + 1), in: writes)
            let above = try high.map { try items(manual.filter(Field("order") >= .string($0)).limit(width + 1), in: writes) } ?? []
            // Neighbours the view does not hold (it changed under the screen): the long key stands.
            guard below.contains(where: { $0.id == plan.lower?.id && $0.space == plan.lower?.space }) else { return plan }
            let window = Array(below.prefix(width).reversed()) + [moved] + Array(above.prefix(width))
            let lowBound = below.count > width ? Self.key(below[width]) : nil
            let highBound = above.count > width ? Self.key(above[width]) : nil
            if let keys = OrderKey.spread(window.count, between: lowBound, and: highBound),
               keys.allSatisfy({ $0.utf8.count <= OrderKey.spreadLength }) || (lowBound == nil && highBound == nil) {
                var spread = Plan(movedKey: "", lower: plan.lower, upper: plan.upper)
                for (item, key) in zip(window, keys) {
                    if item.id == moved.id && item.space == moved.space { spread.movedKey = key } else { spread.keys.append((item, key)) }
                }
                return spread
            }
            width *= 4
        }
    }
}
