import OfflineSync

/// The whole app without a screen: the list, the editor on top of it, and conflict dialogs on
/// top of both (one at a time, in arrival order).
@MainActor
public final class AppViewModel {
    /// The list screen.
    public let list: TodoListViewModel
    /// The open editor, if any.
    public private(set) var editor: TodoEditorViewModel?
    /// Conflicts waiting for an answer; the first is on screen.
    public private(set) var conflicts: [ConflictDialogViewModel] = []
    /// Set when the person asked to quit.
    public private(set) var shouldQuit = false
    /// Called after every change that should be drawn.
    public var onChange: () -> Void = {} { didSet { list.onChange = { [weak self] in self?.onChange() } } }

    let service: TodoService

    /// Builds the app over a service; conflicts found while pushing are asked through the inbox.
    public init(service: TodoService) {
        self.service = service
        list = TodoListViewModel(service: service)
        let inbox = service.inbox
        service.setConflictPolicy(.ask { [weak self] prompt in
            inbox.post { self?.present(prompt) }
        })
    }

    /// The dialog on screen, if any.
    public var conflict: ConflictDialogViewModel? { conflicts.first }

    /// Loads the list.
    public func start() { list.start() }

    /// Routes a key to the topmost screen.
    public func handle(_ key: KeyEvent) {
        if let dialog = conflicts.first {
            if let choice = dialog.handle(key) {
                conflicts.removeFirst()
                dialog.prompt.answer(choice)
            }
        } else if let editor {
            switch editor.handle(key) {
            case .none: break
            case .close: self.editor = nil
            case .save(let item):
                self.editor = nil
                service.save(item) { [weak self] result in
                    if case .failure(let error) = result { self?.list.noteError(error) }
                    self?.list.reload()
                    self?.list.refreshStatus()
                }
            }
        } else {
            switch list.handle(key) {
            case .none: break
            case .openEditor(let item): editor = TodoEditorViewModel(item: item)
            case .quit: shouldQuit = true
            }
        }
        onChange()
    }

    /// Shows a conflict dialog (called on the UI loop).
    public func present(_ prompt: ConflictPrompt) {
        conflicts.append(ConflictDialogViewModel(prompt: prompt))
        onChange()
    }
}

extension TodoListViewModel {
    /// Shows a failed write in the status bar.
    func noteError(_ error: OfflineSync.SyncError) {
        status.message = error.message
        onChange()
    }
}
