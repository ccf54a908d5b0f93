import OfflineSync
import Synchronization
import TableProtocol
import TodoModel

/// How a listing's items nest on screen (`Subtasks`): which subtasks show under a parent, and
/// which stand at the top because their parent is not in the listing (done, held back, in
/// another list, deleted) or because a cycle was broken at them. Read as ids only, so a listing
/// of many subtasks costs one narrow query (and a few by id for their parents), and one without
/// any costs one empty query.
struct ListingOutline: Sendable, Equatable {
    /// Subtask id → the parent it shows under.
    let parents: [String: String]
    /// Subtasks that stand at the top.
    let rooted: [String]
    /// Whether the screen shows the listing flat (`maximumNamed`); `todo list` nests it still.
    let isFlat: Bool

    /// A listing whose subtasks, rooted and not, both exceed this is shown flat on screen: every
    /// item at the top. Its rows at the top are found by naming the ids on one side, and a query
    /// names so many at most.
    static let maximumNamed = 10_000

    /// What narrows the listing to the rows that stand at the top (nil: every row does), made
    /// once per outline: it names thousands of ids, and every window and count of the listing
    /// reads it.
    let rootsFilter: QueryPredicate?

    /// An outline (none: a listing without subtasks), shown flat when both sides are too many to name.
    init(parents: [String: String] = [:], rooted: [String] = []) {
        let isFlat = min(rooted.count, parents.count) > Self.maximumNamed
        (self.parents, self.rooted, self.isFlat) = (parents, rooted, isFlat)
        rootsFilter = {
            if isFlat || parents.isEmpty { return nil }
            let id = SystemProperty.id.rawValue
            if rooted.count <= parents.count {
                let named = QueryPredicate.oneOf(id, rooted)
                return named.map { Field("parentId") == nil || $0 } ?? (Field("parentId") == nil)
            }
            return QueryPredicate.oneOf(id, parents.keys.sorted()).map { !$0 }
        }()
    }

    /// `query` (the listing) narrowed to the rows that stand at the top.
    func roots(_ query: SyncQuery) -> SyncQuery { rootsFilter.map(query.filter) ?? query }

    /// Whether `item` shows under its parent here.
    func showsUnderParent(_ item: TodoItem) -> Bool { !isFlat && item.parentId != nil && parents[item.id] == item.parentId }

    /// Items with a parent: `> ""` rather than `!= nil`, which SQLite answers from the parent index
    /// (most items have none) rather than by scanning the listing.
    static let hasParent = Field("parentId") > .string("")
}

/// Outlines read lately (`KeptUntilWrite`): scrolling reads windows of one listing again and
/// again, and its outline stays until a write.
final class OutlineCache: Sendable {
    /// Listings kept.
    static let capacity = 8
    private let outlines = KeptUntilWrite<SyncQuery, ListingOutline>(capacity: capacity)
    /// Whether any item has a parent, at a write count: without one, no listing needs an outline or progress.
    private let anySubtask = Mutex<(writes: UInt64, any: Bool)?>(nil)
    /// Held while an outline is read: a listing's window and its count ask at once, and the
    /// second then finds the first's outline kept rather than reading it again beside it.
    let reading = Mutex<Void>(())

    /// Whether any item had a parent at `writes`, if known.
    func hasAnySubtask(at writes: UInt64) -> Bool? { anySubtask.withLock { $0?.writes == writes ? $0?.any : nil } }

    /// Keeps whether any item had a parent at `writes`.
    func keep(anySubtask any: Bool, at writes: UInt64) { anySubtask.withLock { $0 = (writes, any) } }

    /// The outline of `query` read at `writes`, if kept.
    func outline(of query: SyncQuery, at writes: UInt64) -> ListingOutline? { outlines.value(of: query, at: writes) }

    /// Keeps an outline read at `writes`, in place of older ones of the same listing.
    func keep(_ outline: ListingOutline, of query: SyncQuery, at writes: UInt64) { outlines.keep(outline, of: query, at: writes) }
}

extension ListingStore {
    /// The outline of the listing `query` selects, read on the snapshot of the `readConsistently`
    /// around it: kept from an earlier read when no write came since. `before`: the store's
    /// `settledWrites`, read before that snapshot began, so what is kept is never newer than its
    /// count (a write finishing in between makes the reading after differ, and nothing is kept).
    func outline(of query: SyncQuery, before: UInt64?) throws -> ListingOutline {
        if let before, let kept = store.outlines.outline(of: query, at: before) { return kept }
        return try store.outlines.reading.withLock { _ in
            if let before, let kept = store.outlines.outline(of: query, at: before) { return kept }
            let outline = try readOutline(of: query)
            if let before, context.settledWrites == before { store.outlines.keep(outline, of: query, at: before) }
            return outline
        }
    }

    /// Whether any item has a parent: one step into the parent index, kept until a write
    /// (`before` as for `outline(of:before:)`).
    func hasAnySubtask(before: UInt64?) throws -> Bool {
        if let before, let kept = store.outlines.hasAnySubtask(at: before) { return kept }
        let any = try !table.untyped.read(table.query.filter(ListingOutline.hasParent).order(by: "parentId").select([SystemProperty.id.rawValue]).limit(1)).items.isEmpty
        if let before, context.settledWrites == before { store.outlines.keep(anySubtask: any, at: before) }
        return any
    }

    private func readOutline(of query: SyncQuery) throws -> ListingOutline {
        let idField = SystemProperty.id.rawValue
        let items = table.untyped
        // In parent order, whatever the listing's: the parent index answers it (a listing's order,
        // or the store's default by id, walks every row). Siblings in the index's order, not by
        // id: only the grouping matters below, and SQLite spent most of this read sorting each
        // parent's subtasks by id (BENCHMARKS.md, "todo (terminal client)").
        var query = query
        query.orderBy = []
        let subtasks = try items.values(query.filter(ListingOutline.hasParent).order(by: "parentId").tiesInAnyOrder().select([idField, "parentId"]))
        guard !subtasks.isEmpty else { return ListingOutline() }
        // Items as numbers (`Subtasks.shownParents(_:ids:)`): each id hashed once when numbered
        // and once when named as a parent. The subtasks first, each with the parent it names.
        var ids: [String] = [], named: [String?] = [], number: [String: Int] = [:]
        number.reserveCapacity(subtasks.count * 3 / 2)
        // Each parent once, in order: the rows come in parent order.
        var parents: [String] = []
        for subtask in subtasks {
            guard case .string(let id) = subtask[0], case .string(let parent) = subtask[1] else { continue }
            if parents.last != parent { parents.append(parent) }
            if let known = number[id] { named[known] = parent; continue }  // one id in two spaces: one item here
            number[id] = ids.count
            ids.append(id)
            named.append(parent)
        }
        // Parents that are no subtasks themselves: shown when the listing holds them. Looked up
        // by id in no order (`query` has none left), which the index of an item's id with what
        // the open items' and a list's listings test answers without their rows; each is
        // numbered after the subtasks and none has a parent, so the order does not matter.
        let others = parents.filter { number[$0] == nil }
        for any in QueryPredicate.oneOf(idField, chunking: others) {
            for row in try items.values(query.filter(any).tiesInAnyOrder().select([idField])) {
                guard case .string(let id) = row[0], number[id] == nil else { continue }
                number[id] = ids.count
                ids.append(id)
                named.append(nil)
            }
        }
        let parent = named.enumerated().map { index, parent in parent.flatMap { number[$0] }.map { $0 == index ? -1 : $0 } ?? -1 }
        let shown = Subtasks.shownParents(parent, ids: ids)
        var shownUnder: [String: String] = [:]
        shownUnder.reserveCapacity(ids.count)
        for (index, parentIndex) in shown.enumerated() where parentIndex >= 0 { shownUnder[ids[index]] = ids[parentIndex] }
        return ListingOutline(parents: shownUnder, rooted: ids.indices.filter { named[$0] != nil && shown[$0] < 0 }.map { ids[$0] }.sorted())
    }

    /// The subtasks shown under each of `roots` that is unfolded (or kept folded) in `request`, at
    /// every depth (a nested parent's only when it is unfolded too), in outline order (each level
    /// in the request's sort): their ids by one narrow ordered query per level, then as items only
    /// the rows around the screen (`SubtaskRun`, `subtaskSpans`).
    func subtaskRuns(under roots: [TodoItem], request: ListWindowRequest, outline: ListingOutline, in list: SyncQuery) throws -> [String: SubtaskRun] {
        let unfolded = request.unfolded
        let read = { (root: TodoItem) in unfolded.contains(root.id) || request.keptFolded.contains(root.id) }
        let idField = SystemProperty.id.rawValue
        var children: [String: [(id: String, space: String?)]] = [:]
        var level = outline.isFlat ? [] : roots.filter(read).map(\.id)
        var seen = Set(level)
        while !level.isEmpty {
            var next: [String] = []
            for parents in QueryPredicate.oneOf("parentId", chunking: level) {
                let named = ListQuery.order(list.filter(parents), by: request.sort).select([idField, "parentId", SharedSpace.column])
                for row in try table.untyped.values(named) {
                    guard case .string(let child) = row[0], case .string(let parent) = row[1], outline.parents[child] == parent else { continue }
                    let space: String? = if case .string(let space) = row[2] { space } else { nil }
                    children[parent, default: []].append((child, space))
                    if unfolded.contains(child), seen.insert(child).inserted { next.append(child) }
                }
            }
            level = next
        }
        var slots: [(root: String, slots: [SubtaskSlot])] = []
        for root in roots where read(root) {
            var shown: [SubtaskSlot] = []
            var visited: Set<String> = [root.id]
            func visit(_ parent: String, depth: Int) {
                for child in children[parent] ?? [] where visited.insert(child.id).inserted {
                    shown.append(SubtaskSlot(id: child.id, depth: depth, space: child.space))
                    if unfolded.contains(child.id) { visit(child.id, depth: depth + 1) }
                }
            }
            visit(root.id, depth: 1)
            slots.append((root.id, shown))
        }
        let spans = Self.subtaskSpans(slots.map { ($0.root, $0.slots.count) }, request: request)
        var wanted: [String] = []
        for (root, shown) in slots { for range in spans[root] ?? [] { wanted += shown[range].map(\.id) } }
        var items: [ItemKey: TodoItem] = [:]
        items.reserveCapacity(wanted.count)
        for named in QueryPredicate.oneOf(idField, chunking: wanted) {
            for item in try table.read(list.filter(named)).records.map(TodoItem.init) { items[item.key] = item }
        }
        var runs: [String: SubtaskRun] = [:]
        for (root, shown) in slots {
            let read = Set((spans[root] ?? []).flatMap { shown[$0].map(\.key) })
            runs[root] = SubtaskRun(slots: shown, items: items.filter { read.contains($0.key) })
        }
        return runs
    }

    /// Which of each unfolded root's subtask rows (by index, from 0) a window reads as items, as
    /// many screens as `RowWindow` reads of the rows at the top: the screen's top root's from
    /// `screensAbove` screens above its top on, a root above it its last `screensAbove`, a root
    /// below it its first screens after those, and both ends while the screen's top is not
    /// among them.
    static func subtaskSpans(_ roots: [(id: String, count: Int)], request: ListWindowRequest) -> [String: [Range<Int>]] {
        let screen = request.screen
        let (above, below) = (ListWindowRequest.screensAbove * screen, (ListWindowRequest.screensRead - ListWindowRequest.screensAbove) * screen)
        let top = request.screenTop
        let topIndex = top.flatMap { top in roots.firstIndex { $0.id == top.root } }
        var spans: [String: [Range<Int>]] = [:]
        for (index, root) in roots.enumerated() {
            let clamp = { (range: Range<Int>) -> Range<Int> in
                let upper = max(0, min(root.count, range.upperBound))
                return min(max(0, range.lowerBound), upper)..<upper
            }
            switch (topIndex, top) {
            case (let at?, let top?) where index == at:
                let first = top.subtask - 1
                spans[root.id] = [clamp(first - above..<first + below)]
            case (let at?, _) where index < at: spans[root.id] = [clamp(root.count - above..<root.count)]
            case (.some, _): spans[root.id] = [clamp(0..<below)]
            default: spans[root.id] = [clamp(0..<below), clamp(root.count - above..<root.count)]
            }
        }
        return spans
    }

    /// How many of each item's own subtasks are done, of how many, for the items of `ids` that have any.
    func progress(of ids: [String]) throws -> [String: SubtaskProgress] {
        var progress: [String: SubtaskProgress] = [:]
        for parents in QueryPredicate.oneOf("parentId", chunking: ids) {
            let query = table.query.filter(parents)
            let totals = try table.untyped.counts(query, groupedBy: "parentId")
            let done = try table.untyped.counts(query.filter(Field("complete") == true), groupedBy: "parentId")
            for (key, total) in totals {
                guard case .string(let id) = key else { continue }
                progress[id] = SubtaskProgress(done: done[key] ?? 0, total: total)
            }
        }
        return progress
    }
}

/// How many of an item's own subtasks are done.
public struct SubtaskProgress: Sendable, Equatable {
    /// Done ones.
    public var done: Int
    /// All of them.
    public var total: Int

    /// Progress of `done` of `total`.
    public init(done: Int, total: Int) { (self.done, self.total) = (done, total) }

    /// "2/5".
    public var text: String { Subtasks.progress(done: done, of: total) ?? "" }
}
