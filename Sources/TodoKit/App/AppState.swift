import OfflineSync
import TodoModel

/// The whole app without a screen, as one value: the list, the views over it (a stack of
/// layers: prompts, help, the view switcher, the editor, the conflict history, the sign-in and
/// conflict dialogs), the status bar, today and the lists. Keys go to the top layer (the list
/// when there is none).
public struct AppState: Sendable, Equatable {
    /// The list screen, under every layer.
    public private(set) var list = TodoListViewModel()
    /// The views over the list, bottom-up; the last one has the keys.
    public private(set) var layers: [Layer] = []
    /// The status bar.
    public private(set) var status: SyncStatus
    /// The item being edited in the person's own editor, and the file last handed to it.
    public private(set) var externalEdit: ExternalEdit?
    /// Today, once read (due dates show as "today", overdue ones stand out).
    public private(set) var today: DueDate?
    /// The lists, in order.
    public private(set) var lists: [TodoList] = []
    /// What each capability keeps for every view (`CapabilityState`).
    public internal(set) var capabilities = CapabilityStates()
    /// How many items each scope holds, once counted (the sidebar's numbers).
    public private(set) var scopeCounts: [ListScope: Int] = [:]

    /// Every scope, in the sidebar's order.
    public var scopes: [ListScope] { ListScope.every(lists: lists) }
    /// Set when the person asked to quit.
    public private(set) var shouldQuit = false

    /// The app for a server URL (nil: local only), with the user signed in to it, if known;
    /// `live` turns on live sync (with a server); `showCompleted` starts the list with completed items shown.
    public init(server: String?, user: String? = nil, live: Bool = false, showCompleted: Bool = false) {
        list = TodoListViewModel(showCompleted: showCompleted)
        status = SyncStatus(server: server)
        status.user = user
        if live && server != nil { status.live = .connecting }
    }

    /// The view with the keys.
    public var top: any KeyedView { layers.last?.view ?? list }

    /// The conflict dialog on screen, if any.
    public var conflict: ConflictDialogViewModel? { layers.lazy.compactMap { if case .conflict(let v) = $0 { v } else { nil } }.last }
    /// The open editor, if any.
    public var editor: TodoEditorViewModel? { layers.lazy.compactMap { if case .editor(let v) = $0 { v } else { nil } }.last }
    /// The conflict history, when open.
    public var history: ConflictHistoryViewModel? { layers.lazy.compactMap { if case .history(let v) = $0 { v } else { nil } }.last }
    /// The sign-in dialog, when open.
    public var signIn: SignInDialogViewModel? { layers.lazy.compactMap { if case .signIn(let v) = $0 { v } else { nil } }.last }
    /// The help, when open.
    public var help: HelpViewModel? { layers.lazy.compactMap { if case .help(let v) = $0 { v } else { nil } }.last }

    /// Applies a message and every message its effects send to the app itself; answers the
    /// effects left for the sync service.
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
                + [.conflicts(.observeQuestions), .sync(.observePullProgress), .sync(.loadStatus), .readDay, .lists(.observeLists), .sharing(.observeSharing)]
                + (status.live == nil ? [] : [.sync(.startLive)])
        case .dayStarted(let day, let secondsLeft):
            today = day
            return scopeContextChanged() + [.after(seconds: secondsLeft + 1, .dayEnded)]
        case .listsLoaded(let lists):
            self.lists = lists
            var effects = scopeContextChanged()
            if case .list(let id, let name) = list.scope {
                // Renamed on another device: the same list under its new name; deleted: the Inbox.
                let now = lists.first { $0.id == id }
                if now?.name != name { effects += list.update(.scopeChosen(now.map { .list(id: $0.id, name: $0.name) } ?? .inbox)) }
            }
            return effects
        case .capability(let message): return message.base.apply(to: &self)
        case .scopeCountsLoaded(let counts): scopeCounts = counts
        case .cycleScope(let step):
            let scopes = self.scopes
            let index = scopes.firstIndex(of: list.scope) ?? 0
            return list.update(.scopeChosen(scopes[((index + step) % scopes.count + scopes.count) % scopes.count]))
        case .chooseScope(let scope): return list.update(.scopeChosen(scope))
        case .openScopeSwitcher: push(.scopeSwitcher(ScopeSwitcherViewModel(scopes: scopes, counts: scopeCounts, current: list.scope)))
        case .dayEnded: return [.readDay]
        case .key(let key): return route(key)
        case .list(let message): return list.update(message)
        case .push(let layer): push(layer)
        case .editExternally(let item):
            let file = ItemFile.render(item, listName: item.listId.flatMap { id in lists.first { $0.id == id }?.name })
            externalEdit = ExternalEdit(item: item, file: file)
            return [.items(.runEditor(file))]
        case .externalEditFinished(let saved, let error): return externalEditFinished(saved, error: error)
        case .openHelp(let rows): push(.help(HelpViewModel(rows: rows, pageHeight: list.pageHeight)))
        case .openEditor(let item):
            var editor = TodoEditorViewModel(item: item, lists: lists, today: today)
            if let listId = item.listId, sharing[listId] != nil { editor.lastChangedBy = item.updatedBy }
            push(.editor(editor))
        case .resumeEditing(let stored, let draft):
            push(.editor(TodoEditorViewModel(item: stored, draft: draft, lists: lists, today: today)))
            return status.update(.notice("Not saved — edit again and save, or Esc to drop your change"))
        case .editedItemLoaded(let id, let stored):
            return withLayer(TodoEditorViewModel.self) { editor in
                if editor.original.id == id { editor.noteStoredVersion(stored) }
                return []
            }
        case .editSaved(.clashed(let clash)):
            push(.conflict(ConflictDialogViewModel(prompt: clash.prompt)))
        case .editSaved(let result):
            return status.update(.notice(Self.notice(for: result))) + afterWrite()
        case .toggleLive: return status.update(.toggleLive)
        case .liveChanged(let state): return status.update(.liveChanged(state))
        case .liveSynced(let activity, let outcome):
            // A failure is said on the status bar; the sign-in dialog waits for a sync the person asked for.
            _ = status.update(.liveSynced(activity, outcome))
            // The item being edited may have changed: say so before the person saves.
            if case .succeeded = outcome, activity == .pulled, let editor { return afterWrite() + [.items(.loadEditedItem(id: editor.original.id))] }
            return afterWrite()
        case .syncRequested: return status.update(.syncRequested)
        case .synced(let outcome):
            _ = status.update(.synced(outcome))
            if case .failed(_, .signedOut) = outcome, signIn == nil { push(.signIn(SignInDialogViewModel(user: status.user ?? ""))) }
            return afterWrite()
        case .toLayer(let message): return message.base.deliver(in: &self)
        case .open(let opener):
            let (layer, effects) = opener.open(in: self)
            if let layer { push(layer) }
            return effects
        case .signedIn(let user):
            layers.removeAll { if case .signIn = $0 { true } else { false } }
            return status.update(.signedIn(user: user))
        case .written(let error):
            // A newer write makes an older notice ("Sync cancelled — …") stale.
            return status.update(.notice(error)) + afterWrite()
        case .undone(let notice): return status.update(.notice(notice)) + afterWrite()
        case .statusLoaded(let snapshot): return status.update(.loaded(snapshot, historyOpen: history != nil))
        case .notice(let text): return status.update(.notice(text))
        case .conflictRaised(let prompt): push(.conflict(ConflictDialogViewModel(prompt: prompt)))
        case .openHistory:
            push(.history(ConflictHistoryViewModel()))
            return status.update(.historyOpened) + [.conflicts(.observeLog)]
        case .pullProgress(let progress): return status.update(.pullProgress(progress))
        case .tick: return status.update(.tick)
        case .quit: shouldQuit = true
        }
        return []
    }

    /// Reads back the file the person's editor saved: saves the item, or hands the file back
    /// headed by what is wrong; a file saved unchanged gives up.
    private mutating func externalEditFinished(_ saved: String?, error: String?) -> [Effect] {
        guard let edit = externalEdit else { return [] }
        guard let saved, saved != edit.file else {
            externalEdit = nil
            return apply(.notice(error.map { "Could not run your editor: \($0)" } ?? "Not changed"))
        }
        do {
            var (item, listName) = try ItemFile.parse(saved, original: edit.item, today: today)
            if let listName {
                guard let list = lists.first(where: { $0.name.lowercased() == listName.lowercased() }) else {
                    throw ItemFile.ParseError(line: 1, reason: "no list is called “\(listName)” (todo lists add \(listName) makes one)")
                }
                item.listId = list.id
            } else {
                item.listId = nil
            }
            externalEdit = nil
            return item.sameContent(as: edit.item) ? apply(.notice("Not changed")) : [.items(.save(item, original: edit.item))]
        } catch {
            let again = ItemFile.withError(saved, (error as? ItemFile.ParseError)?.description ?? "\(error)")
            externalEdit = ExternalEdit(item: edit.item, file: again)
            return [.items(.runEditor(again))]
        }
    }

    /// Today or the lists changed: the list's scope query and the sidebar's counts follow.
    private mutating func scopeContextChanged() -> [Effect] {
        let context = ScopeContext(today: today, lists: lists)
        // The same day and lists again (a list's position moved, a day re-read): nothing to re-watch.
        guard context != list.context else { return [] }
        return list.update(.contextChanged(context)) + [.lists(.observeScopeCounts(scopes, context))]
    }

    /// The status bar's words after the editor saved.
    private static func notice(for result: EditSaveResult) -> String? {
        switch result {
        case .saved, .clashed: return nil
        case .merged: return "Saved — merged with a change made on another device"
        case .addedBack: return "It was deleted on another device while you edited it — saved as a new item"
        }
    }

    /// A write or a sync changed the store: re-read the queue's state (the list's rows and count
    /// are live queries, which see every commit by themselves).
    private func afterWrite() -> [Effect] { [.sync(.loadStatus)] }

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
    private mutating func push(_ layer: Layer) {
        layers.insert(layer, at: layers.firstIndex(where: \.isConflict) ?? layers.endIndex)
    }

    /// Applies `change` to the topmost view of a type, if open; it leaves the stack when done.
    mutating func withLayer<View: LayerView>(_ type: View.Type, _ change: (inout View) -> [Effect]) -> [Effect] {
        guard let index = layers.lastIndex(where: { $0.view is View }), var view = layers[index].view as? View else { return [] }
        let effects = change(&view)
        layers[index] = view.layer
        if view.isClosed { layers.remove(at: index) }
        return effects
    }
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
