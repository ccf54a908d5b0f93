import OfflineSync
import TodoModel

/// The whole app without a screen, as one value: the list, the views over it (a stack of
/// layers: prompts, help, the view switcher, the editor, the conflict history, the sign-in and
/// conflict dialogs), the status bar, today, and each capability's state. Keys go to the top
/// layer (the list when there is none); a capability's messages are applied by the capability
/// (`CapabilityMessage`).
public struct AppState: Sendable, Equatable {
    /// The list screen, under every layer.
    public internal(set) var list = TodoListViewModel()
    /// The views over the list, bottom-up; the last one has the keys (`push`, `withLayer`).
    public private(set) var layers: [Layer] = []
    /// The status bar.
    public internal(set) var status: SyncStatus
    /// The item being edited in the person's own editor, and the file last handed to it.
    public internal(set) var externalEdit: ExternalEdit?
    /// Today, once read (due dates show as "today", overdue ones stand out).
    public private(set) var today: DueDate?
    /// The lists and the sidebar's counts (`ListsMessage`).
    public internal(set) var listsState = ListsState()
    /// Which lists are shared, and how (`SharingMessage`).
    public internal(set) var sharingState = SharingState()
    /// The items whose reminder came due while the app was open (`RemindersMessage`).
    public internal(set) var remindersState = RemindersState()
    /// Set when the person asked to quit.
    public private(set) var shouldQuit = false

    /// What a key that needs the server says when the app runs without one.
    public static let localOnlyNotice = "Local only — start with --server URL to sync"

    /// The app for a server URL (nil: local only), with the user signed in to it, if known;
    /// `live` turns on live sync (with a server); `showCompleted` starts the list with completed items shown.
    public init(server: String?, user: String? = nil, live: Bool = false, showCompleted: Bool = false, sorts: [String: ListSort] = [:]) {
        list = TodoListViewModel(showCompleted: showCompleted, sorts: sorts)
        status = SyncStatus(server: server)
        status.user = user
        if live && server != nil { status.live = .connecting }
    }

    /// The view with the keys.
    public var top: any KeyedView { layers.last?.view ?? list }

    /// The topmost open view of a kind, if any.
    public func topmost<View: LayerView>(_ type: View.Type) -> View? { layers.lazy.compactMap(View.from).last }
    /// The conflict dialog on screen, if any.
    public var conflict: ConflictDialogViewModel? { topmost(ConflictDialogViewModel.self) }
    /// The open editor, if any.
    public var editor: TodoEditorViewModel? { topmost(TodoEditorViewModel.self) }
    /// The conflict history, when open.
    public var history: ConflictHistoryViewModel? { topmost(ConflictHistoryViewModel.self) }
    /// The sign-in dialog, when open.
    public var signIn: SignInDialogViewModel? { topmost(SignInDialogViewModel.self) }
    /// The help, when open.
    public var help: HelpViewModel? { topmost(HelpViewModel.self) }

    /// Applies a message and every message its effects send to the app itself; answers the
    /// effects left for the runtime.
    public mutating func update(_ message: AppMessage) -> [Effect] {
        var messages = [message]
        var effects: [Effect] = []
        while !messages.isEmpty {
            for effect in apply(messages.removeFirst()) {
                if case .send(let next) = effect { messages.append(next) } else { effects.append(effect) }
            }
        }
        return effects
    }

    private mutating func apply(_ message: AppMessage) -> [Effect] {
        switch message {
        case .started:
            return list.update(.reload(countDelay: 0))
                + [.conflicts(.observeQuestions), .sync(.observePullProgress), .sync(.loadStatus), .readDay, .lists(.observeLists), .lists(.observeViews), .sharing(.observeSharing),
                   .reminders(.watch)]
                + (status.live == nil ? [] : [.sync(.startLive)])
        case .key(let key): return route(key)
        case .list(let message): return list.update(message)
        case .push(let layer): push(layer)
        case .openHelp(let rows): push(.help(HelpViewModel(rows: rows, pageHeight: list.pageHeight)))
        case .open(let opener):
            let (layer, effects) = opener.open(in: self)
            if let layer { push(layer) }
            return effects
        case .written(let error):
            // A newer write makes an older notice ("Sync cancelled — …") stale.
            return status.update(.notice(error)) + afterWrite()
        case .notice(let text): return status.update(.notice(text))
        case .tick: return status.update(.tick)
        case .dayStarted(let day, let secondsLeft):
            today = day
            return scopeContextChanged() + [.after(seconds: secondsLeft + 1, .dayEnded)]
        case .dayEnded: return [.readDay]
        case .quit: shouldQuit = true
        case .lists(let message): return message.apply(to: &self)
        case .items(let message): return message.apply(to: &self)
        case .undo(let message): return message.apply(to: &self)
        case .conflicts(let message): return message.apply(to: &self)
        case .sync(let message): return message.apply(to: &self)
        case .signIn(let message): return message.apply(to: &self)
        case .sharing(let message): return message.apply(to: &self)
        case .reminders(let message): return message.apply(to: &self)
        }
        return []
    }

    /// Today or the lists changed: the list's scope query and the sidebar's counts follow.
    mutating func scopeContextChanged() -> [Effect] {
        let context = ScopeContext(today: today, lists: lists)
        // The same day and lists again (a list's position moved, a day re-read): nothing to re-watch.
        guard context != list.context else { return [] }
        return list.update(.contextChanged(context)) + [.lists(.observeScopeCounts(scopes, context))]
    }

    /// A write or a sync changed the store: re-read the queue's state (the list's rows and count
    /// are live queries, which see every commit by themselves).
    func afterWrite() -> [Effect] { [.sync(.loadStatus)] }

    /// Sends a key to the top view through its key table; a view that is done leaves the stack.
    private mutating func route(_ key: KeyEvent) -> [Effect] {
        if case .action(.quit) = KeyTables.global.lookup(key, in: self) { return apply(.quit) }
        guard var view = layers.last?.view else { return list.press(key, in: self) }
        let effects = view.press(key, in: self)
        layers[layers.count - 1] = view.layer
        layers.removeAll { $0.view.isClosed }
        return effects
    }

    /// Opens a view over the others. The one rule of the stack: conflict dialogs stay on top, in
    /// arrival order (the oldest has the keys), so a new view goes under them, and a new conflict
    /// under the ones already waiting.
    mutating func push(_ layer: Layer) {
        layers.insert(layer, at: layers.firstIndex(where: \.isConflict) ?? layers.endIndex)
    }

    /// Applies `change` to the topmost view of a type, if open (nil when none is); it leaves the
    /// stack when done.
    mutating func withLayer<View: LayerView>(_ type: View.Type, _ change: (inout View) -> [Effect]) -> [Effect]? {
        guard let index = layers.lastIndex(where: { View.from($0) != nil }), var view = View.from(layers[index]) else { return nil }
        let effects = change(&view)
        layers[index] = view.layer
        if view.isClosed { layers.remove(at: index) }
        return effects
    }

    /// Closes every open view of a kind.
    mutating func closeLayers<View: LayerView>(_ type: View.Type) { layers.removeAll { View.from($0) != nil } }
}

extension AppState {
    /// An item out in the person's own editor.
    public struct ExternalEdit: Sendable, Equatable {
        /// The item as it was.
        public var item: TodoItem
        /// The file handed to the editor.
        public var file: String
    }
}
