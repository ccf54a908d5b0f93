/// One view over the list. `AppState.layers` holds them bottom-up: keys go to the top one, the
/// screen draws them in order over the list, and `AppState.push` is the one place that says
/// where a new one goes.
public enum Layer: Sendable, Equatable {
    case addPrompt(AddPromptViewModel)
    case markedChangePrompt(MarkedChangePromptViewModel)
    case filterPrompt(FilterPromptViewModel)
    case itemConfirmation(ItemConfirmationViewModel)
    case help(HelpViewModel)
    case scopeSwitcher(ScopeSwitcherViewModel)
    case editor(TodoEditorViewModel)
    case history(ConflictHistoryViewModel)
    case signIn(SignInDialogViewModel)
    case conflict(ConflictDialogViewModel)
    case share(ShareDialogViewModel)
    case export(ExportPromptViewModel)

    /// The view itself.
    public var view: any LayerView {
        switch self {
        case .addPrompt(let view): return view
        case .markedChangePrompt(let view): return view
        case .filterPrompt(let view): return view
        case .itemConfirmation(let view): return view
        case .help(let view): return view
        case .scopeSwitcher(let view): return view
        case .editor(let view): return view
        case .history(let view): return view
        case .signIn(let view): return view
        case .conflict(let view): return view
        case .share(let view): return view
        case .export(let view): return view
        }
    }

    /// Conflict dialogs stay above every other layer (see `AppState.push`).
    var isConflict: Bool { if case .conflict = self { true } else { false } }
}
