import OfflineSync
import TableProtocol
import TodoModel

/// The list's reads: its windows and counts and the sidebar's counts (live or once), and
/// `todo list`'s reads of any size, a chunk at a time.
public struct ListingStore: StoreFacet {
    let store: TodoStore

    /// One window of the list: its rows at the top level, the subtasks under the unfolded ones
    /// (as items around the screen), and the progress of every row read that has subtasks.
    public func window(_ request: ListWindowRequest) throws -> ListWindow {
        try readWindow(request)
    }

    /// A window of the list as a live query: now, then after every commit that changed the table.
    public func observeWindow(_ request: ListWindowRequest) -> AsyncThrowingStream<ListWindow, any Error> {
        let listing = self
        return table.untyped.observe { try listing.readWindow(request) }
    }

    /// Its reads on one snapshot: the outline, the rows, the subtasks and the progress agree.
    private func readWindow(_ request: ListWindowRequest) throws -> ListWindow {
        let before = context.settledWrites
        return try context.readConsistently { try readWindowRows(request, before: before) }
    }

    private func readWindowRows(_ request: ListWindowRequest, before: UInt64?) throws -> ListWindow {
        if Self.matchesNothing(filterText: request.filterText, scope: request.scope) { return ListWindow(request: request, items: []) }
        let list = listQuery(request)
        let outline = try nests(request.filterText, before: before) ? try outline(of: list, before: before) : nil
        let top = try topRows(request, list: list, outline: outline, before: before)
        guard let outline else { return ListWindow(request: request, items: top.items) }
        let subtasks = try subtaskRuns(under: top.items, request: request, outline: outline, in: list)
        let progress = try self.progress(of: subtasks.values.flatMap { $0.items.values.map(\.id) }).merging(top.progress) { subtask, _ in subtask }
        return ListWindow(request: request, items: top.items, subtasks: subtasks, progress: progress)
    }

    /// The window's rows at the top level and their progress: kept from an earlier read of the
    /// same rows when no write came since (`before` as for `outline(of:before:)`).
    private func topRows(_ request: ListWindowRequest, list: SyncQuery, outline: ListingOutline?, before: UInt64?) throws -> TopRows {
        if let before, let kept = store.topRows.value(of: request.topRowsKey, at: before) { return kept }
        let ordered = ListQuery.order(outline?.roots(list) ?? list, by: request.sort)
        let query = (request.fromEnd ? ordered.reversed() : ordered).limit(request.limit).offset(request.offset)
        let records = try table.read(query).records.map(TodoItem.init)
        let items = request.fromEnd ? records.reversed() : records
        let rows = TopRows(items: items, progress: outline == nil ? [:] : try progress(of: items.map(\.id)))
        if let before, context.settledWrites == before { store.topRows.keep(rows, of: request.topRowsKey, at: before) }
        return rows
    }

    /// How many rows the list has at the top level (a full scan when filtering, so the UI asks for it separately).
    public func count(filterText: String, showCompleted: Bool, scope: ListScope = .all, context: ScopeContext = ScopeContext()) throws -> Int {
        try countRows(CountRequest(filterText: filterText, showCompleted: showCompleted, generation: 0, scope: scope, context: context))
    }

    /// The list's row count at the top level as a live query.
    public func observeCount(_ request: CountRequest) -> AsyncThrowingStream<Int, any Error> {
        let listing = self
        return table.untyped.observe { try listing.countRows(request) }
    }

    private func countRows(_ request: CountRequest) throws -> Int {
        if Self.matchesNothing(filterText: request.filterText, scope: request.scope) { return 0 }
        let list = listQuery(filterText: request.filterText, showCompleted: request.showCompleted, showHeldBack: request.showHeldBack,
                             scope: request.scope, context: request.context)
        let before = context.settledWrites
        return try context.readConsistently {
            let rows = try nests(request.filterText, before: before) ? try outline(of: list, before: before).roots(list) : list
            return try table.untyped.read(rows.limit(0).withTotalCount()).totalCount ?? 0
        }
    }

    /// Whether the list shows subtasks under their parents: not while a filter is typed (what
    /// matches is shown flat, each at the top), and not when no item has a parent.
    private func nests(_ filterText: String, before: UInt64?) throws -> Bool {
        filterText.allSatisfy(\.isWhitespace) ? try hasAnySubtask(before: before) : false
    }

    /// A filter that is no question, or a kept view whose text is none, holds nothing: answered
    /// without a query (SQLite walked the whole order index for `id = ''` to keep its order).
    static func matchesNothing(filterText: String, scope: ListScope) -> Bool {
        if (try? ItemQuery(filterText)) == nil { return true }
        if case .saved(let view) = scope, view.question == nil { return true }
        return false
    }

    func listQuery(_ request: ListWindowRequest) -> SyncQuery {
        listQuery(filterText: request.filterText, showCompleted: request.showCompleted, showHeldBack: request.showHeldBack,
                  scope: request.scope, context: request.context)
    }

    func countQuery(_ request: CountRequest) -> SyncQuery {
        listQuery(filterText: request.filterText, showCompleted: request.showCompleted, showHeldBack: request.showHeldBack,
                  scope: request.scope, context: request.context).limit(0).withTotalCount()
    }

    /// A scope's items narrowed by the filter, a question (`ItemQuery`): a filter finds items
    /// waiting for their start too, and one that asks `is:done` or `is:open` decides that
    /// itself. A filter that is no question (the prompt says which word) matches nothing.
    func listQuery(filterText: String, showCompleted: Bool, showHeldBack: Bool = false, scope: ListScope = .all,
                   context: ScopeContext = ScopeContext()) -> SyncQuery {
        guard let question = try? ItemQuery(filterText) else { return table.query.filter(Field(SystemProperty.id.rawValue) == .string("")) }
        return ListQuery.filter(ListQuery.filter(table.query, scope: scope, context: context, showCompleted: showCompleted,
                                                 showHeldBack: showHeldBack || !question.isEmpty, completionAsked: question.asksCompletion),
                                question: question, context: context)
    }

    /// The items of a listing in its order, a chunk at a time, each with the list it shows in and
    /// whether a local change to it waits to be sent.
    public func forEachChunk(of listing: ItemListing, today: DueDate, _ body: ([ListedItem]) throws -> Void) throws {
        try forEachChunk(of: listing, today: today, where: nil, body)
    }

    /// The same, of the listing's items `predicate` also holds for.
    func forEachChunk(of listing: ItemListing, today: DueDate, where predicate: QueryPredicate?, _ body: ([ListedItem]) throws -> Void) throws {
        let entries = try store.spaces.listEntries()
        let byId = Dictionary(entries.map { ($0.list.id, $0) }, uniquingKeysWith: { first, _ in first })
        var query = listing.query(table.query, today: today, lists: entries.map(\.list))
        if let predicate { query = query.filter(predicate) }
        try table.forEachChunk(query) { records, pending in
            try body(records.map { synced in
                let item = TodoItem(synced)
                let entry = item.listId.flatMap { byId[$0] }
                return ListedItem(item: item, list: entry?.list, listName: entry?.commandName, isPending: pending.contains(item.key))
            })
        }
    }

    /// How many items each scope holds (open ones, but for Completed) as a live query, read
    /// again after every commit to the items: All, Inbox and every list from one count of the
    /// open items grouped by list, the other scopes by one index-range count each.
    public func observeCounts(of scopes: [ListScope], context: ScopeContext) -> AsyncThrowingStream<[ListScope: Int], any Error> {
        table.untyped.observe(reading: countsReader(of: scopes, context: context))
    }

    /// How many items each scope holds now (open ones, but for Completed), read as `observeCounts` reads them.
    public func counts(of scopes: [ListScope], context: ScopeContext) throws -> [ListScope: Int] {
        try countsReader(of: scopes, context: context)()
    }

    private func countsReader(of scopes: [ListScope], context: ScopeContext) -> @Sendable () throws -> [ListScope: Int] {
        let open = ListQuery.filter(table.query, scope: .all, context: context, showCompleted: false)
        let counted = scopes.filter { !ListQuery.isCountedByList($0) }
            .map { ($0, countQuery(CountRequest(filterText: "", showCompleted: false, generation: 0, scope: $0, context: context))) }
        let items = table.untyped
        return {
            var counts = ListQuery.counts(of: scopes, byList: try items.counts(open, groupedBy: "listId"), context: context)
            for (scope, query) in counted {
                counts[scope] = Self.matchesNothing(filterText: "", scope: scope) ? 0 : try items.read(query).totalCount ?? 0
            }
            return counts
        }
    }
}

extension TodoStore {
    /// The list's reads.
    public var listing: ListingStore { ListingStore(store: self) }
}
