import OfflineSync

/// The whole app without a screen, as one value: the list, the editor on top of it, conflict
/// dialogs on top of both (one at a time, in arrival order), and the status bar.
public struct AppState: Sendable, Equatable {
    /// The list screen.
    public private(set) var list = TodoListViewModel()
    /// The open editor, if any.
    public private(set) var editor: TodoEditorViewModel?
    /// Conflicts waiting for an answer; the first is on screen.
    public private(set) var conflicts: [ConflictDialogViewModel] = []
    /// The conflict history, when open (over the list, under the dialogs).
    public private(set) var history: ConflictHistoryViewModel?
    /// The sign-in dialog, when open.
    public private(set) var signIn: SignInDialogViewModel?
    /// The status bar.
    public private(set) var status: SyncStatus
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

    /// The dialog on screen, if any.
    public var conflict: ConflictDialogViewModel? { conflicts.first }

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
        case .started: return list.update(.reload(countDelay: 0)) + [.loadStatus] + (status.live == nil ? [] : [.startLive])
        case .key(let key): return route(key)
        case .list(let message): return list.update(message)
        case .openEditor(let item): editor = TodoEditorViewModel(item: item)
        case .resumeEditing(let stored, let draft):
            editor = TodoEditorViewModel(item: stored, draft: draft)
            status.message = "Not saved — edit again and save, or Esc to drop your change"
        case .editedItemLoaded(let id, let stored):
            guard var editor, editor.original.id == id else { return [] }
            editor.noteStoredVersion(stored)
            self.editor = editor
        case .editSaved(.clashed(let clash)):
            conflicts.append(ConflictDialogViewModel(prompt: clash.prompt))
        case .editSaved(let result):
            status.message = Self.notice(for: result)
            return afterWrite()
        case .toggleLive:
            guard status.server != nil else { return apply(.notice(SyncStatus.localOnlyNotice)) }
            if status.live == nil {
                status.live = .connecting
                status.message = "Live sync on"
                return [.startLive]
            }
            status.live = nil
            status.message = "Live sync off — r syncs"
            return [.stopLive]
        case .liveChanged(let state):
            guard status.live != nil, state != .stopped else { return [] }
            status.live = state
            if state == .live { reachedServer() }
        case .liveSynced(let activity, let outcome):
            if activity == .pulled { status.pullProgress = nil }
            switch outcome {
            case .succeeded(let date):
                reachedServer()
                if activity == .pulled {
                    status.lastSync = date
                    // The item being edited may have changed: say so before the person saves.
                    if let editor { return afterWrite() + [.loadEditedItem(id: editor.original.id)] }
                }
            case .failed(let text, let reason):
                // Said on the status bar; the sign-in dialog waits for a sync the person asked for.
                status.message = text
                status.connectivity = reason.connectivity
            }
            return afterWrite()
        case .syncRequested:
            guard !status.syncing else { return [] }
            guard status.server != nil else { return apply(.notice(SyncStatus.localOnlyNotice)) }
            status.syncing = true
            status.message = nil
            return [.sync, .after(seconds: SyncStatus.spinnerInterval, .tick)]
        case .synced(let outcome):
            status.syncing = false
            status.pullProgress = nil
            switch outcome {
            case .succeeded(let date):
                status.connectivity = .online
                status.lastSync = date
            case .failed(let text, let reason):
                status.message = text
                status.connectivity = reason.connectivity
                if reason == .signedOut, signIn == nil { signIn = SignInDialogViewModel(user: status.user ?? "") }
            }
            return afterWrite()
        case .openSignIn:
            guard status.server != nil else { return apply(.notice(SyncStatus.localOnlyNotice)) }
            signIn = SignInDialogViewModel(user: status.user ?? "")
        case .signIn(let message):
            guard var dialog = signIn else { return [] }
            let effects = dialog.update(message)
            signIn = dialog.isCancelled ? nil : dialog
            return effects
        case .signedIn(let user):
            signIn = nil
            status.user = user
            status.connectivity = .unknown
            let effects = apply(.syncRequested)
            status.message = "Signed in as \(user)"
            // The open feed still carries the old token (or none): reopen it.
            return effects + (status.live == nil ? [] : [.startLive])
        case .written(let error):
            // A newer write makes an older notice ("Sync cancelled — …") stale.
            status.message = error
            return afterWrite()
        case .undone(let notice):
            status.message = notice
            return afterWrite()
        case .statusLoaded(let snapshot):
            status.pending = snapshot.pending
            status.pendingIds = snapshot.pendingIds
            status.newConflicts = history == nil ? snapshot.newConflicts : 0
            if status.lastSync == nil { status.lastSync = snapshot.lastSync }
        case .notice(let text): status.message = text
        case .conflictRaised(let prompt): conflicts.append(ConflictDialogViewModel(prompt: prompt))
        case .openHistory:
            history = ConflictHistoryViewModel()
            status.newConflicts = 0
            return [.loadConflicts]
        case .history(let message):
            guard var history else { return [] }
            var effects = history.update(message)
            self.history = history.isClosed ? nil : history
            if case .restored = message { effects += afterWrite() }
            return effects
        case .pullProgress(let progress):
            // A pull of one page is over before anyone could read it: show only longer ones.
            guard (progress.total ?? 0) > progress.received || status.pullProgress != nil else { return [] }
            let turning = status.syncing || status.pullProgress != nil
            status.pullProgress = progress.total == progress.received ? nil : progress
            // The spinner turns for a live pull too, while its progress shows.
            if !turning, status.pullProgress != nil { return [.after(seconds: SyncStatus.spinnerInterval, .tick)] }
        case .tick:
            guard status.syncing || status.pullProgress != nil else { return [] }
            status.spinnerFrame += 1
            return [.after(seconds: SyncStatus.spinnerInterval, .tick)]
        case .quit: shouldQuit = true
        }
        return []
    }

    /// The server answered: an "Offline —" or "Signed out —" notice from before is over.
    private mutating func reachedServer() {
        if status.connectivity == .offline || status.connectivity == .signedOut { status.message = nil }
        status.connectivity = .online
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
    private func afterWrite() -> [Effect] { [.loadStatus] }

    /// Where the answer to the dialog on screen goes: to the waiting push, or (an editor's clash)
    /// into a save, a notice or the editor again.
    private mutating func answered(_ prompt: ConflictPrompt, _ answer: ConflictAnswer) -> [Effect] {
        guard case .editor(let clash) = prompt.origin else { return [.answer(questionId: prompt.id, answer)] }
        switch answer.choice {
        case .useClient: return [.saveOver(clash.keepingEdit)]
        case .useServer: return apply(.notice("Kept the version from the other device; your edit was dropped"))
        case .cancel: return apply(.resumeEditing(stored: clash.stored, draft: clash.edited))
        }
    }

    /// Sends a key to the topmost view through its key table.
    private mutating func route(_ key: KeyEvent) -> [Effect] {
        if case .action(.quit) = KeyTables.global.lookup(key, in: self) { return apply(.quit) }
        if !conflicts.isEmpty {
            guard case .action(let action) = KeyTables.dialog.lookup(key, in: self) else { return [] }
            conflicts[0].update(action)
            guard let reply = conflicts[0].reply else { return [] }
            return answered(conflicts.removeFirst().prompt, reply)
        }
        if signIn != nil {
            switch KeyTables.signIn.lookup(key, in: self) {
            case .action(let action): return apply(.signIn(.action(action)))
            case .disabled, .unbound: return apply(.signIn(.typed(key)))
            }
        }
        if history != nil {
            guard case .action(let action) = KeyTables.history.lookup(key, in: self) else { return [] }
            return apply(.history(.action(action)))
        }
        if var editor {
            let effects: [Effect]
            switch KeyTables.editor.lookup(key, in: self) {
            case .action(let action): effects = editor.update(.action(action))
            case .disabled, .unbound: effects = editor.update(.typed(key))
            }
            self.editor = editor.isClosed ? nil : editor
            return effects
        }
        if list.mode == .browsing {
            switch KeyTables.list.lookup(key, in: self) {
            case .action(let action): return list.update(.action(action))
            case .disabled(let reason): return apply(.notice(reason))
            case .unbound: return []
            }
        }
        return list.update(promptMessage(for: key))
    }

    /// The list's message for a key while a prompt or overlay is up, by that mode's table.
    private func promptMessage(for key: KeyEvent) -> TodoListViewModel.Message {
        switch list.mode {
        case .adding: return Self.message(KeyTables.addPrompt.lookup(key, in: self), key, TodoListViewModel.Message.addPrompt)
        case .filtering: return Self.message(KeyTables.filterPrompt.lookup(key, in: self), key, TodoListViewModel.Message.filterPrompt)
        case .confirmingDelete: return Self.message(KeyTables.confirm.lookup(key, in: self), key, TodoListViewModel.Message.confirm)
        case .help: return Self.message(KeyTables.help.lookup(key, in: self), key, TodoListViewModel.Message.help)
        case .browsing: return .typed(key)
        }
    }

    private static func message<Action>(_ lookup: KeyLookup<Action>, _ key: KeyEvent,
                                        _ wrap: (Action) -> TodoListViewModel.Message) -> TodoListViewModel.Message {
        if case .action(let action) = lookup { return wrap(action) }
        return .typed(key)
    }
}
