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
    }

    public private(set) var filter = TextField()
    /// Which items it shows.
    public private(set) var scope: ListScope = .all
    /// What the scope's query needs (today, the lists that exist).
    public private(set) var context = ScopeContext()
    public private(set) var showCompleted = false
    /// Whether items waiting for their start date are shown (`w`).
    public private(set) var showHeldBack = false
    /// The selected row.
    public private(set) var selected = 0
    /// The first row on screen.
    public private(set) var scrollTop = 0
    /// Rows the screen has room for.
    public private(set) var pageHeight = 10
    /// The rows loaded so far.
    public private(set) var rows = RowWindow()

    /// An empty list, before its first window, showing completed items or not.
    public init(showCompleted: Bool = false) { self.showCompleted = showCompleted }

    /// Rows in the whole (filtered) list.
    public var total: Int { rows.total }

    /// The rows on screen, from `scrollTop`; nil for rows still loading.
    public var visibleRows: [TodoItem?] {
        let count = max(0, min(pageHeight, total - scrollTop))
        return (0..<count).map { rows.row(at: scrollTop + $0) }
    }

    /// The selected item, when loaded.
    public var selectedItem: TodoItem? { rows.row(at: selected) }

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
            selected = 0
            scrollTop = 0
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
        }
        return []
    }

    public static var keys: KeyTable<ListAction> { KeyTables.list }

    /// Applies a key of the list's table.
    public mutating func update(_ action: ListAction) -> [Effect] {
        switch action {
        case .moveUp:
            // ↑ on the first row is the terminal's pull-to-refresh.
            if selected == 0 { return [.send(.sync(.syncRequested))] }
            return select(selected - 1)
        case .moveDown: return select(selected + 1)
        case .pageUp: return select(selected - max(1, pageHeight - 1))
        case .pageDown: return select(selected + max(1, pageHeight - 1))
        case .first: return select(0)
        case .last: return select(total - 1)
        case .open: return selectedItem.map { [.send(.items(.openEditor($0)))] } ?? []
        case .editExternally: return selectedItem.map { [.send(.items(.editExternally($0)))] } ?? []
        case .add: return [.send(.items(.openAddPrompt(scope: scope, today: context.today)))]
        case .toggleComplete:
            // The stored item, not this row: the row may be older than the store.
            if let item = selectedItem { return [.items(.setComplete(id: item.id, space: item.space, complete: !item.complete))] }
        case .delete: if let item = selectedItem { return [.send(.items(.confirmDelete(item)))] }
        case .undo: return [.undo(.undo)]
        case .redo: return [.undo(.redo)]
        case .filter: return [.send(.push(.filterPrompt(FilterPromptViewModel())))]
        case .toggleShowCompleted:
            showCompleted.toggle()
            selected = 0
            scrollTop = 0
            return reload(countDelay: 0)
        case .toggleShowHeldBack:
            showHeldBack.toggle()
            selected = 0
            scrollTop = 0
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
        let generation = rows.invalidate(listRequest)
        let count: Effect = countDelay > 0 ? .after(seconds: countDelay, .list(.countDue(generation: generation))) : .listView(.observeCount(countRequest))
        return ensureLoaded() + [count]
    }

    /// The list on screen as a request (its rows aside).
    private var listRequest: ListWindowRequest {
        ListWindowRequest(filterText: filter.text, showCompleted: showCompleted, showHeldBack: showHeldBack, scope: scope, context: context)
    }

    private var countRequest: CountRequest {
        CountRequest(filterText: filter.text, showCompleted: showCompleted, showHeldBack: showHeldBack, generation: rows.countGeneration,
                     scope: scope, context: context)
    }

    private mutating func select(_ index: Int) -> [Effect] {
        selected = max(0, min(index, total - 1))
        clampScroll()
        return ensureLoaded()
    }

    private mutating func clampScroll() {
        selected = max(0, min(selected, total - 1))
        if selected < scrollTop { scrollTop = selected }
        if selected >= scrollTop + pageHeight { scrollTop = selected - pageHeight + 1 }
        scrollTop = max(0, min(scrollTop, max(0, total - pageHeight)))
    }

    private mutating func setFilter(_ field: TextField) -> [Effect] {
        filter = field
        selected = 0
        scrollTop = 0
        return reload(countDelay: Self.countDelay)
    }

    /// Asks for a window of three pages around the screen unless the screen is covered.
    private mutating func ensureLoaded() -> [Effect] {
        rows.request(listRequest, top: scrollTop, height: pageHeight)
            .map { [.listView(.observeWindow($0))] } ?? []
    }
}
