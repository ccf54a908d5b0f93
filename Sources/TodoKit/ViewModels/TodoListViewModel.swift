import Foundation
import OfflineSync

/// The list screen's state and behaviour: incomplete items sorted by text, a window of rows
/// loaded from the store on demand, selection, filter, add and delete prompts, refresh.
@MainActor
public final class TodoListViewModel {
    /// What the screen is doing.
    public enum Mode: Equatable {
        case browsing
        case adding(TextField)
        case filtering
        case confirmingDelete(TodoItem)
        case help
    }

    /// What the app must do after a key.
    public enum Outcome: Equatable { case none, openEditor(TodoItem), quit }

    public private(set) var mode: Mode = .browsing
    public private(set) var filter = TextField()
    public private(set) var showCompleted = false
    /// Rows in the whole (filtered) list; until the count arrives, the rows known so far.
    public var total: Int {
        if let knownTotal { return knownTotal }
        guard let window else { return 0 }
        return window.request.offset + window.items.count
    }
    /// The selected row.
    public private(set) var selected = 0
    /// The first row on screen.
    public private(set) var scrollTop = 0
    /// Rows the screen has room for; set by the terminal on every resize.
    public var pageHeight = 10 { didSet { if pageHeight != oldValue { clampScroll(); ensureLoaded() } } }
    public internal(set) var status: SyncStatus
    /// Called after every change of state that should be drawn.
    public var onChange: () -> Void = {}

    let service: TodoService
    private var window: ListWindow?
    /// The window shows the list as it was before a write or sync; its reload is on its way.
    private var windowIsStale = false
    private var inFlightRequest: ListWindowRequest?
    private var knownTotal: Int?
    private var countGeneration = 0

    /// Creates the list over a service.
    public init(service: TodoService) {
        self.service = service
        status = SyncStatus(server: service.serverURL?.absoluteString)
    }

    /// The rows on screen, from `scrollTop`; nil for rows still loading.
    public var visibleRows: [TodoItem?] {
        let count = max(0, min(pageHeight, total - scrollTop))
        return (0..<count).map { row(at: scrollTop + $0) }
    }

    /// The selected item, when loaded.
    public var selectedItem: TodoItem? { row(at: selected) }

    /// True once the first window has arrived.
    public var isLoaded: Bool { window != nil }

    /// True while a window is being read from the store.
    public var isLoading: Bool { inFlightRequest != nil }

    /// Loads the first window and the queue's state.
    public func start() {
        reload()
        refreshStatus()
    }

    // MARK: Keys

    /// Handles one key in the current mode.
    public func handle(_ key: KeyEvent) -> Outcome {
        switch mode {
        case .browsing: return browse(key)
        case .adding(var field):
            switch key {
            case .enter:
                mode = .browsing
                let text = field.text.trimmingCharacters(in: .whitespaces)
                if !text.isEmpty { service.add(text) { [weak self] in self?.afterWrite($0.map { _ in () }) } }
            case .escape: mode = .browsing
            default:
                field.handle(key)
                mode = .adding(field)
            }
        case .filtering:
            switch key {
            case .enter: mode = .browsing
            case .escape:
                mode = .browsing
                setFilter(TextField())
            case .up, .down, .pageUp, .pageDown: return browse(key)
            default:
                var field = filter
                if field.handle(key) { setFilter(field) }
            }
        case .confirmingDelete(let item):
            switch key {
            case .character("y"), .character("Y"):
                mode = .browsing
                service.delete(item) { [weak self] in self?.afterWrite($0) }
            case .character("n"), .character("N"), .escape: mode = .browsing
            default: break
            }
        case .help:
            mode = .browsing
        }
        onChange()
        return .none
    }

    private func browse(_ key: KeyEvent) -> Outcome {
        guard let action = KeyMap.action(for: key) else { return .none }
        switch action {
        case .moveUp:
            // ↑ on the first row is the terminal's pull-to-refresh.
            if selected == 0 { refresh() } else { select(selected - 1) }
        case .moveDown: select(selected + 1)
        case .pageUp: select(selected - max(1, pageHeight - 1))
        case .pageDown: select(selected + max(1, pageHeight - 1))
        case .first: select(0)
        case .last: select(total - 1)
        case .open: if let item = selectedItem { return .openEditor(item) }
        case .add: mode = .adding(TextField())
        case .toggleComplete:
            if let item = selectedItem {
                service.setComplete(id: item.id, to: !item.complete) { [weak self] in self?.afterWrite($0.map { _ in () }) }
            }
        case .delete: if let item = selectedItem { mode = .confirmingDelete(item) }
        case .filter: mode = .filtering
        case .toggleShowCompleted:
            showCompleted.toggle()
            selected = 0
            scrollTop = 0
            reload()
        case .refresh: refresh()
        case .help: mode = .help
        case .quit: return .quit
        }
        onChange()
        return .none
    }

    // MARK: Sync

    /// Pushes local changes, then pulls remote ones; the UI keeps working meanwhile.
    public func refresh() {
        guard !status.syncing else { return }
        guard service.serverURL != nil else {
            status.message = "Local only — start with --server URL to sync"
            onChange()
            return
        }
        status.syncing = true
        status.message = nil
        onChange()
        service.sync { [weak self] result in
            guard let self else { return }
            status.syncing = false
            switch result {
            case .success:
                status.connectivity = .online
                status.lastSync = Date()
            case .failure(let error):
                if error.code == .pushAbortedNetwork { status.connectivity = .offline } else { status.connectivity = .online }
                status.message = SyncStatus.describe(error, pending: service.context.pendingOperationsCount)
            }
            reload()
            refreshStatus()
        }
    }

    /// Advances the spinner (called by a timer while syncing).
    public func tick() {
        guard status.syncing else { return }
        status.spinnerFrame += 1
        onChange()
    }

    /// Re-reads the queue's state.
    public func refreshStatus() {
        service.status { [weak self] result in
            guard let self, case .success(let snapshot) = result else { return }
            status.pending = snapshot.pending
            status.pendingIds = snapshot.pendingIds
            if status.lastSync == nil { status.lastSync = snapshot.lastSync }
            onChange()
        }
    }

    /// Re-reads the rows around the current position and the row count (after a write, a sync,
    /// or a change of filter): rows first, so the frame does not wait for the count; the count
    /// waits `countDelay` seconds (while typing a filter, only the last key's count runs).
    /// Until the new rows arrive, the old ones of the same list stay on screen and keys act on
    /// them, so keys typed right after a write are not lost to an empty window.
    public func reload(countDelay: Double = 0) {
        if let window, window.request.filterText == filter.text, window.request.showCompleted == showCompleted {
            windowIsStale = true
        } else {
            window = nil
            knownTotal = nil
        }
        inFlightRequest = nil
        countGeneration += 1
        ensureLoaded()
        let generation = countGeneration
        service.count(filterText: filter.text, showCompleted: showCompleted, after: countDelay) { [weak self] result in
            guard let self, self.countGeneration == generation, case .success(let count) = result else { return }
            self.knownTotal = count
            self.clampScroll()
            self.ensureLoaded()
            self.onChange()
        }
    }

    // MARK: Rows

    private func row(at index: Int) -> TodoItem? {
        guard let window, index >= window.request.offset, index - window.request.offset < window.items.count else { return nil }
        return window.items[index - window.request.offset]
    }

    private func select(_ index: Int) {
        selected = max(0, min(index, total - 1))
        clampScroll()
        ensureLoaded()
    }

    private func clampScroll() {
        selected = max(0, min(selected, total - 1))
        if selected < scrollTop { scrollTop = selected }
        if selected >= scrollTop + pageHeight { scrollTop = selected - pageHeight + 1 }
        scrollTop = max(0, min(scrollTop, max(0, total - pageHeight)))
    }

    private func setFilter(_ field: TextField) {
        filter = field
        selected = 0
        scrollTop = 0
        reload(countDelay: Self.filterCountDelay)
    }

    /// Typing pauses longer than this get a count; faster keys only get rows.
    static let filterCountDelay = 0.15

    /// Asks for a window of three pages around the screen unless the screen is covered.
    private func ensureLoaded() {
        let request = ListWindowRequest(
            filterText: filter.text, showCompleted: showCompleted,
            offset: max(0, scrollTop - 2 * pageHeight), limit: max(pageHeight, 1) * 6)
        if !windowIsStale, let window, window.request.filterText == request.filterText, window.request.showCompleted == request.showCompleted,
           scrollTop >= window.request.offset,
           min(scrollTop + pageHeight, total) <= window.request.offset + window.items.count {
            return
        }
        if let inFlightRequest, inFlightRequest == request { return }
        inFlightRequest = request
        service.window(request) { [weak self] result in
            guard let self, self.inFlightRequest == request else { return }
            self.inFlightRequest = nil
            switch result {
            case .success(let loaded):
                self.window = loaded
                self.windowIsStale = false
                if loaded.reachesEnd { self.knownTotal = loaded.request.offset + loaded.items.count }
                self.clampScroll()
                self.ensureLoaded()
            case .failure(let error):
                self.status.message = SyncStatus.describe(error, pending: self.status.pending)
            }
            self.onChange()
        }
    }

    private func afterWrite(_ result: Result<Void, SyncError>) {
        if case .failure(let error) = result { status.message = error.message }
        reload()
        refreshStatus()
    }
}
