import OfflineSync
import TodoModel
/// The list screen as a value: incomplete items sorted by text, a window of rows kept current by
/// live queries of the store, selection and filter. Its prompts and the help are layers over it.
public struct TodoListViewModel: KeyedView {
    /// Everything the list's `update` takes.
    public enum Message: Sendable, Equatable {
        /// A key of the list's table.
        case action(ListAction)
        /// A key typed into the filter (by the "Filter:" prompt).
        case filterTyped(KeyEvent)
        /// The filter prompt's Esc: no filter.
        case clearFilter
        /// Show another scope (a list, Today…).
        case scopeChosen(ListScope)
        /// A list moved to a new id (shared for the first time): the screen follows it if on it.
        case listMoved(from: String, to: String)
        /// Today or the lists changed: the scope's query does too.
        case contextChanged(ScopeContext)
        /// The terminal has room for this many rows.
        case resized(pageHeight: Int)
        /// Re-read rows and count (after a write or a sync); the count after `countDelay` seconds.
        case reload(countDelay: Double)
        /// A window of rows arrived.
        case windowLoaded(ListWindow)
        /// A window could not be read.
        case windowFailed(ListWindowRequest, message: String)
        /// The count's delay passed.
        case countDue(generation: Int)
        /// A count arrived.
        case counted(total: Int, generation: Int)
        /// An action took the marked items: the marks are cleared.
        case marksActedOn
        /// A move by hand was written (or failed, saying why).
        case moveWritten(error: String?)
    }

    public private(set) var filter = TextField()
    /// Which items it shows.
    public private(set) var scope: ListScope = .all
    /// What the scope's query needs (today, the lists that exist).
    public private(set) var context = ScopeContext()
    public private(set) var showCompleted = false
    /// Whether items waiting for their start date are shown (`w`).
    public private(set) var showHeldBack = false
    /// The selected row at the top level.
    public private(set) var selected = 0
    /// Which of that row's shown subtasks is selected (0: the row itself).
    public private(set) var selectedSubtask = 0
    /// The first row on screen, at the top level.
    public private(set) var scrollTop = 0
    /// Which of that row's shown subtasks is first on screen (0: the row itself).
    public private(set) var scrollTopSubtask = 0
    /// The parents whose subtasks show; every other parent is folded, as each is at first.
    public private(set) var unfolded: Set<String> = []
    /// Top-level parents folded since the view was chosen (its scope, filter, sort or what it
    /// shows) whose subtasks the window still reads: folding hides rows already read, and
    /// unfolding one again shows them at once.
    public private(set) var keptFolded: Set<String> = []
    /// Rows the screen has room for.
    public private(set) var pageHeight = 10
    /// The rows loaded so far.
    public private(set) var rows = RowWindow()
    /// The items marked for one action.
    public private(set) var marks = Marks()
    /// Moves by hand shown on screen and not yet written: until they are, a window the store
    /// answered predates one of them, and is not shown (the next key would act on it).
    public private(set) var movesInFlight = 0
    /// Each view's sort on this device, by `ListScope.memoryKey` (the standard one where none is set).
    public private(set) var sorts: [String: ListSort] = [:]

    /// What is wrong with the filter, when it is no question (`ItemQuery`): it then matches nothing.
    public var filterError: String? {
        do {
            _ = try ItemQuery(filter.text)
            return nil
        } catch {
            return error.description
        }
    }

    /// How the view on screen is sorted.
    public var sort: ListSort { sorts[scope.memoryKey] ?? .standard }

    /// Why `J` and `K` do nothing in a view sorted another way.
    public static let sortByHandFirst = "Sort the view by hand first (o) to move items"

    /// An empty list, before its first window, showing completed items or not, each view sorted
    /// as this device remembers (`sorts`, by `ListScope.memoryKey`).
    public init(showCompleted: Bool = false, sorts: [String: ListSort] = [:]) {
        self.showCompleted = showCompleted
        self.sorts = sorts
    }

    /// Rows at the top level in the whole (filtered) list.
    public var total: Int { rows.total }

    /// The rows on screen, from the top one; nil for rows still loading.
    public var visibleRows: [ListRow?] {
        var shown: [ListRow?] = []
        var position: RowPosition? = top
        while let at = position, shown.count < pageHeight, at.row < total {
            shown.append(row(at: at))
            position = next(at)
        }
        return shown
    }

    /// Whether the row on screen at `offset` from the top is the selected one.
    public func isSelected(visibleOffset offset: Int) -> Bool { moved(top, by: offset) == selection }

    /// The selected item, when loaded.
    public var selectedItem: TodoItem? { row(at: selection)?.item }

    /// True once the first window has arrived.
    public var isLoaded: Bool { rows.loaded != nil }

    /// True while a window is being read from the store.
    public var isLoading: Bool { rows.inFlight != nil }

    /// Keys that change the list (typing a filter, switching views) get a count once they pause
    /// this long; faster keys only get rows: a count over a million items is slow, and counts
    /// left running slowed the next key's rows (BENCHMARKS.md, "The app at a million items":
    /// switching view).
    static let countDelay = 0.15

    /// Applies one message.
    public mutating func update(_ message: Message) -> [Effect] {
        switch message {
        case .action(let action): return update(action)
        case .clearFilter: return setFilter(TextField())
        case .scopeChosen(let scope):
            guard scope != self.scope else { return [] }
            self.scope = scope
            resetPosition()
            return reload(countDelay: Self.countDelay)
        case .listMoved(let from, let to):
            guard case .list(from, let name) = scope else { return [] }
            return update(.scopeChosen(.list(id: to, name: name)))
        case .contextChanged(let context):
            guard context != self.context else { return [] }
            self.context = context
            return reload(countDelay: 0)
        case .filterTyped(let key):
            var field = filter
            if field.handle(key) { return setFilter(field) }
        case .resized(let height):
            guard height != pageHeight else { return [] }
            pageHeight = height
            clampScroll()
            return ensureLoaded()
        case .reload(let countDelay): return reload(countDelay: countDelay)
        case .windowLoaded(let window):
            guard movesInFlight == 0 || !window.request.sameList(as: listRequest) else { return [] }
            guard rows.receive(window) else { return [] }
            clampScroll()
            return ensureLoaded()
        case .windowFailed(let request, let text):
            return rows.fail(request) ? [.send(.notice(text))] : []
        case .countDue(let generation):
            return generation == rows.countGeneration ? [.listView(.observeCount(countRequest))] : []
        case .counted(let total, let generation):
            guard rows.receiveCount(total, generation: generation) else { return [] }
            clampScroll()
            return ensureLoaded()
        case .marksActedOn: marks = Marks()
        case .moveWritten(let error):
            movesInFlight = max(0, movesInFlight - 1)
            var effects: [Effect] = [.send(.written(error: error))]
            if movesInFlight == 0 {
                // The store's rows now hold every move: read them again.
                rows.markStale()
                effects += ensureLoaded()
            }
            return effects
        }
        return []
    }

    public static var keys: KeyTable<ListAction> { KeyTables.list }

    /// Applies a key of the list's table.
    public mutating func update(_ action: ListAction) -> [Effect] {
        switch action {
        case .moveUp:
            // ↑ on the first row is the terminal's pull-to-refresh.
            if selection == RowPosition(row: 0, sub: 0) { return [.send(.sync(.syncRequested))] }
            return select(moved(selection, by: -1))
        case .moveDown: return select(moved(selection, by: 1))
        case .pageUp: return select(moved(selection, by: -max(1, pageHeight - 1)))
        case .pageDown: return select(moved(selection, by: max(1, pageHeight - 1)))
        case .first: return select(RowPosition(row: 0, sub: 0))
        case .last: return select(RowPosition(row: total - 1, sub: shownCount(total - 1)))
        case .toggleFold:
            guard let row = row(at: selection), row.progress != nil else { return [] }
            return setFolded(row.item.id, !row.isFolded, atTop: row.depth == 0)
        case .unfold:
            guard let row = row(at: selection), row.isFolded else { return [] }
            return setFolded(row.item.id, false, atTop: row.depth == 0)
        case .fold:
            guard let row = row(at: selection) else { return [] }
            if row.progress != nil, !row.isFolded { return setFolded(row.item.id, true, atTop: row.depth == 0) }
            // On a subtask: its parent is selected, and folded.
            guard row.depth > 0 else { return [] }
            var parent = selection
            while let previous = previous(parent), let above = depth(at: previous) {
                parent = previous
                if above < row.depth { break }
            }
            guard let id = slot(at: parent)?.id, parent != selection else { return [] }
            selection = parent
            return setFolded(id, true, atTop: parent.sub == 0)
        case .cycleSort:
            sorts[scope.memoryKey] = sort.next
            resetPosition()
            return reload(countDelay: 0) + [.listView(.rememberSorts(sorts)), .send(.notice("Sorted \(sort.title)"))]
        case .toggleMark:
            guard let item = selectedItem else { return [] }
            marks.toggle(item, at: selected)
            return select(moved(selection, by: 1))
        case .markRange:
            guard selectedItem != nil else { return [] }
            let from = marks.anchor ?? selected
            marks.mark((min(from, selected)...max(from, selected)).compactMap { rows.row(at: $0) }, endingAt: selected)
        case .markAll: marks.markEverything(listRequest, count: total)
        case .clearMarks: marks = Marks()
        case .changeMarked:
            guard !marks.isEmpty, let today = context.today else { return [] }
            return [.send(.push(.markedChangePrompt(MarkedChangePromptViewModel(marked: marks.selection, count: marks.count, today: today))))]
        case .moveItemUp: return moveItem(by: -1)
        case .moveItemDown: return moveItem(by: 1)
        case .open: return selectedItem.map { [.send(.items(.openEditor($0)))] } ?? []
        case .editExternally: return selectedItem.map { [.send(.items(.editExternally($0)))] } ?? []
        case .add: return [.send(.items(.openAddPrompt(scope: scope, today: context.today)))]
        case .toggleComplete where !marks.isEmpty:
            let marked = marks.selection
            marks = Marks()
            return [.items(.actOnMarked(.complete, marked))]
        case .delete where !marks.isEmpty:
            return [.send(.items(.confirmDeleteMarked(marks.selection, count: marks.count)))]
        case .toggleComplete:
            // By id, so the store's item is written, not this row, which may be older than the store.
            guard let row = row(at: selection) else { return [] }
            // Completing a parent completes its open subtasks: the items capability counts them and asks first.
            if !row.item.complete, row.progress != nil { return [.send(.items(.confirmComplete(row.item)))] }
            return [.items(.setComplete(id: row.item.id, space: row.item.space, complete: !row.item.complete))]
        case .delete: if let item = selectedItem { return [.send(.items(.confirmDelete(item)))] }
        case .undo: return [.undo(.undo)]
        case .redo: return [.undo(.redo)]
        case .filter: return [.send(.push(.filterPrompt(FilterPromptViewModel())))]
        case .toggleShowCompleted:
            showCompleted.toggle()
            resetPosition()
            return reload(countDelay: 0)
        case .toggleShowHeldBack:
            showHeldBack.toggle()
            resetPosition()
            return reload(countDelay: 0)
        case .chooseScope: return [.send(.lists(.openScopeSwitcher))]
        case .nextScope: return [.send(.lists(.cycleScope(1)))]
        case .previousScope: return [.send(.lists(.cycleScope(-1)))]
        case .refresh: return [.send(.sync(.syncRequested))]
        case .toggleLive: return [.send(.sync(.toggleLive))]
        case .history: return [.send(.conflicts(.openHistory))]
        case .help: return [.send(.openHelp(KeyTables.helpRows))]
        case .quit: return [.send(.quit)]
        case .openLayer(let opener): return [.send(.open(opener))]
        }
        return []
    }

    /// Re-reads the rows around the current position and the row count: rows first, so the
    /// frame does not wait for the count; the count waits `countDelay` seconds (while typing a
    /// filter or switching views, only the last key's count runs).
    private mutating func reload(countDelay: Double) -> [Effect] {
        keptFolded = []
        let generation = rows.invalidate(listRequest)
        let count: Effect = countDelay > 0 ? .after(seconds: countDelay, .list(.countDue(generation: generation))) : .listView(.observeCount(countRequest))
        return ensureLoaded() + [count]
    }

    /// The list on screen as a request (its rows aside).
    private var listRequest: ListWindowRequest {
        var request = ListWindowRequest(filterText: filter.text, showCompleted: showCompleted, showHeldBack: showHeldBack, scope: scope, context: context)
        request.unfolded = unfolded
        request.keptFolded = keptFolded
        request.sort = sort
        return request
    }

    private var countRequest: CountRequest {
        CountRequest(filterText: filter.text, showCompleted: showCompleted, showHeldBack: showHeldBack, generation: rows.countGeneration,
                     scope: scope, context: context)
    }

    private mutating func select(_ position: RowPosition) -> [Effect] {
        selection = position
        clampScroll()
        return ensureLoaded()
    }

    private mutating func resetPosition() {
        selection = RowPosition(row: 0, sub: 0)
        top = selection
    }

    /// Keeps the selection on a row that exists and on screen, and the screen full at the list's end.
    private mutating func clampScroll() {
        var selection = self.selection
        selection.row = max(0, min(selection.row, total - 1))
        selection.sub = max(0, min(selection.sub, shownCount(selection.row)))
        var top = self.top
        if selection < top {
            top = selection
        } else if !isOnScreen(selection, from: top) {
            top = moved(selection, by: -(pageHeight - 1))
        }
        let shown = rowsShown(from: top)
        if shown < pageHeight { top = moved(top, by: -(pageHeight - shown)) }
        (self.selection, self.top) = (selection, top)
    }

    /// Folds or unfolds a parent: the window is read again with its subtasks, or without, but for
    /// a top-level parent whose subtasks it holds (`keptFolded`), shown or hidden at once.
    private mutating func setFolded(_ id: String, _ folded: Bool, atTop: Bool) -> [Effect] {
        if folded {
            unfolded.remove(id)
            if atTop, rows.holdsSubtasks(of: id) {
                keptFolded.insert(id)
                clampScroll()
                return ensureLoaded()
            }
        } else {
            unfolded.insert(id)
            if keptFolded.remove(id) != nil, rows.holdsSubtasks(of: id) {
                clampScroll()
                return ensureLoaded()
            }
        }
        keptFolded.remove(id)
        rows.markStale()
        clampScroll()
        return ensureLoaded()
    }

    private mutating func setFilter(_ field: TextField) -> [Effect] {
        filter = field
        resetPosition()
        return reload(countDelay: Self.countDelay)
    }

    /// Asks for a window of six pages around the screen unless the screen is covered and read (a
    /// subtask row shown may not be: only an unfolded parent's long run is read in part).
    private mutating func ensureLoaded() -> [Effect] {
        rows.request(listRequest, top: scrollTop, topSubtask: scrollTopSubtask, height: pageHeight,
                     screenRead: unfolded.isEmpty || visibleRows.allSatisfy { $0 != nil })
            .map { [.listView(.observeWindow($0))] } ?? []
    }

    // MARK: Moving by hand

    /// Moves the selected item one place among its siblings (the rows at its depth under the
    /// same parent): the store writes its key between its new neighbours', and the cursor goes
    /// with it.
    private mutating func moveItem(by step: Int) -> [Effect] {
        guard sort == .manual, let row = row(at: selection), let sibling = sibling(of: selection, step), let next = key(at: sibling) else { return [] }
        // Past the sibling: between it and the one after it (before it, moving up).
        let beyond = self.sibling(of: sibling, step)
        let further = beyond.flatMap(key(at:))
        if beyond != nil, further == nil { return [] }  // not loaded yet
        let (lower, upper) = step > 0 ? (next, further) : (further, next)
        let parent = row.depth > 0 ? row.item.parentId : nil
        // Shown at once (the next key acts on the new order, not on rows the store has yet to
        // answer), and the cursor follows: a subtask moving down past a sibling shown with its
        // own subtasks lands after them.
        if row.depth == 0 {
            guard rows.swapRows(selection.row, sibling.row) else { return [] }
            selection = sibling
        } else {
            let (upperRun, lowerRun) = step > 0 ? (selection, sibling) : (sibling, selection)
            let first = upperRun.sub - 1..<lastRow(under: upperRun).sub, second = lowerRun.sub - 1..<lastRow(under: lowerRun).sub
            guard let root = rows.row(at: selection.row)?.id, rows.swapSubtaskRuns(under: root, first, second) else { return [] }
            selection = RowPosition(row: selection.row, sub: step > 0 ? selection.sub + second.count : sibling.sub)
        }
        clampScroll()
        movesInFlight += 1
        return [.items(.reorder(ItemMove(item: row.item, after: lower, before: upper, view: listRequest, parent: parent)))] + ensureLoaded()
    }

    /// The row `step` siblings away (same depth, same parent), or nil past the first or last.
    private func sibling(of position: RowPosition, _ step: Int) -> RowPosition? {
        guard let depth = depth(at: position) else { return nil }
        if depth == 0 {
            let index = position.row + step
            return index >= 0 && index < total ? RowPosition(row: index, sub: 0) : nil
        }
        var at = position
        while let next = step > 0 ? next(at) : previous(at), next.row == position.row, let other = self.depth(at: next) {
            if other < depth { return nil }
            if other == depth { return next }
            at = next
        }
        return nil
    }

    /// The last row shown under the subtask row at `position` (itself, when nothing shows under it).
    private func lastRow(under position: RowPosition) -> RowPosition {
        guard let depth = depth(at: position) else { return position }
        var at = position
        while let next = next(at), next.row == position.row, let other = self.depth(at: next), other > depth { at = next }
        return at
    }

    // MARK: Rows at every depth

    private var selection: RowPosition {
        get { RowPosition(row: selected, sub: selectedSubtask) }
        set { (selected, selectedSubtask) = (newValue.row, newValue.sub) }
    }

    private var top: RowPosition {
        get { RowPosition(row: scrollTop, sub: scrollTopSubtask) }
        set { (scrollTop, scrollTopSubtask) = (newValue.row, newValue.sub) }
    }

    /// How many subtask rows show under the top-level row at `index` (none while it is folded or loading).
    private func shownCount(_ index: Int) -> Int {
        guard let item = rows.row(at: index), unfolded.contains(item.id) else { return 0 }
        return rows.subtaskCount(of: item.id)
    }

    /// Which item stands at a position and how deep, its item read or not (nil while its top-level row is not).
    private func slot(at position: RowPosition) -> SubtaskSlot? {
        guard let item = rows.row(at: position.row) else { return nil }
        if position.sub == 0 { return SubtaskSlot(id: item.id, depth: 0, space: item.space) }
        return unfolded.contains(item.id) ? rows.subtaskSlot(of: item.id, at: position.sub - 1) : nil
    }

    private func depth(at position: RowPosition) -> Int? { slot(at: position)?.depth }

    private func key(at position: RowPosition) -> ItemKey? { slot(at: position)?.key }

    /// The row at a position, when loaded.
    private func row(at position: RowPosition) -> ListRow? {
        guard let item = rows.row(at: position.row) else { return nil }
        if position.sub == 0 { return listRow(item, depth: 0) }
        guard unfolded.contains(item.id), let subtask = rows.subtaskRow(of: item.id, at: position.sub - 1) else { return nil }
        return listRow(subtask.item, depth: subtask.depth)
    }

    private func listRow(_ item: TodoItem, depth: Int) -> ListRow {
        let progress = rows.progress(of: item.id)
        return ListRow(item: item, depth: depth, progress: progress, isFolded: progress != nil && !unfolded.contains(item.id))
    }

    private func next(_ position: RowPosition) -> RowPosition? {
        if position.sub < shownCount(position.row) { return RowPosition(row: position.row, sub: position.sub + 1) }
        return position.row + 1 < total ? RowPosition(row: position.row + 1, sub: 0) : nil
    }

    private func previous(_ position: RowPosition) -> RowPosition? {
        if position.sub > 0 { return RowPosition(row: position.row, sub: position.sub - 1) }
        return position.row > 0 ? RowPosition(row: position.row - 1, sub: shownCount(position.row - 1)) : nil
    }

    /// `steps` rows on (back, when negative), stopping at either end.
    private func moved(_ position: RowPosition, by steps: Int) -> RowPosition {
        var position = position
        for _ in 0..<abs(steps) {
            guard let step = steps > 0 ? next(position) : previous(position) else { break }
            position = step
        }
        return position
    }

    /// Whether `position` is among the page of rows from `top`.
    private func isOnScreen(_ position: RowPosition, from top: RowPosition) -> Bool {
        var at: RowPosition? = top
        for _ in 0..<pageHeight {
            guard let current = at else { return false }
            if current == position { return true }
            at = next(current)
        }
        return false
    }

    /// Rows there are from `top` to the list's end, up to a page.
    private func rowsShown(from top: RowPosition) -> Int {
        guard top.row < total else { return 0 }
        var count = 1
        var at = top
        while count < pageHeight, let step = next(at) { (at, count) = (step, count + 1) }
        return count
    }
}

/// Where a row is: its top-level row's index, and which of the subtasks shown under that row (0: the row itself).
public struct RowPosition: Sendable, Hashable, Comparable {
    /// The top-level row.
    public var row: Int
    /// The subtask under it, counted from 1; 0 for the top-level row itself.
    public var sub: Int

    /// A position.
    public init(row: Int, sub: Int) { (self.row, self.sub) = (row, sub) }

    public static func < (lhs: RowPosition, rhs: RowPosition) -> Bool { (lhs.row, lhs.sub) < (rhs.row, rhs.sub) }
}

/// A row on screen: an item, how deep it stands, and its subtasks' progress and fold.
public struct ListRow: Sendable, Equatable {
    /// The item.
    public var item: TodoItem
    /// 0 at the top level, 1 for a top-level item's subtasks, and so on.
    public var depth: Int
    /// How many of its own subtasks are done; nil without subtasks.
    public var progress: SubtaskProgress?
    /// True for a parent whose subtasks are hidden.
    public var isFolded: Bool
}
