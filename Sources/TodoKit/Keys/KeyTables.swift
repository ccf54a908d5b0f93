import TodoModel
/// The key table of every view. Adding a key is one line here plus its case in the view's `update`.
public enum KeyTables {
    /// Keys that work everywhere, before any view sees them.
    public static let global = KeyTable<GlobalAction>([
        KeyBinding([.control("c")], .quit, "Quit from anywhere"),
    ])

    /// The list while browsing.
    public static let list = KeyTable<ListAction>([
        KeyBinding([.up, .character("k")], .moveUp, "Move up (↑ on the first row refreshes)"),
        KeyBinding([.down, .character("j")], .moveDown, "Move down"),
        KeyBinding([.pageUp], .pageUp, "Page up"),
        KeyBinding([.pageDown], .pageDown, "Page down"),
        KeyBinding([.home, .character("g")], .first, "First item"),
        KeyBinding([.end, .character("G")], .last, "Last item"),
        KeyBinding([.enter], .open, "Open the item in the editor", hint: "open"),
        KeyBinding([.character("z"), .tab], .toggleFold, "Fold or unfold the item's subtasks (a parent shows “2/5” done)"),
        KeyBinding([.right], .unfold, "Unfold the item's subtasks"),
        KeyBinding([.left], .fold, "Fold the subtasks; on a subtask, go to its parent and fold it"),
        KeyBinding([.character("a")], .add, "Add an item", hint: "add", disabledReason: { $0.scopeReadOnlyReason }),
        KeyBinding([.character("E")], .editExternally, "Edit the item in $EDITOR as a text file", disabledReason: { $0.selectionReadOnlyReason }),
        KeyBinding([.character(" ")], .toggleComplete, "Toggle complete", hint: "done", disabledReason: { $0.selectionReadOnlyReason }),
        KeyBinding([.character("d")], .delete, "Delete the item (asks first)", hint: "delete", disabledReason: { $0.selectionReadOnlyReason }),
        KeyBinding([.character("/")], .filter, "Filter: text, #tag, +List, due<fri, is:done… (Esc clears)", hint: "filter"),
        KeyBinding([.character("u")], .undo, "Undo the newest change; again to go further back", hint: "undo"),
        KeyBinding([.character("U")], .redo, "Redo what u took back (Ctrl-R is refresh)"),
        KeyBinding([.character("c")], .toggleShowCompleted, "Show or hide completed items", hint: "completed"),
        KeyBinding([.character("m")], .toggleMark, "Mark or unmark the item (Space, d and : act on marks)", hint: "mark"),
        KeyBinding([.character("M")], .markRange, "Mark every item from the last one marked to this one"),
        KeyBinding([.character("*")], .markAll, "Mark every item the list shows (its view and filter)"),
        KeyBinding([.character(":")], .changeMarked, "Change the marked items: +List, !high, due:fri, #tag, -#tag",
                   disabledReason: { $0.list.marks.isEmpty ? "Mark items first (m, M or *)" : nil }),
        KeyBinding([.escape], .clearMarks, "Clear the marks"),
        KeyBinding([.character("o")], .cycleSort, "Sort by due, by hand, priority, date added or text (per view)",
                   hint: "sort"),
        KeyBinding([.character("K")], .moveItemUp, "Move the item up (when the view is sorted by hand)",
                   disabledReason: { $0.list.sort == .manual ? $0.selectionReadOnlyReason : TodoListViewModel.sortByHandFirst }),
        KeyBinding([.character("J")], .moveItemDown, "Move the item down (when the view is sorted by hand)",
                   disabledReason: { $0.list.sort == .manual ? $0.selectionReadOnlyReason : TodoListViewModel.sortByHandFirst }),
        KeyBinding([.character("w")], .toggleShowHeldBack, "Show or hide items waiting for their start date"),
        KeyBinding([.character("v")], .chooseScope, "Choose a view: All, Inbox, Today, Upcoming, a list, Completed", hint: "views"),
        KeyBinding([.character("]")], .nextScope, "Next view"),
        KeyBinding([.character("[")], .previousScope, "Previous view"),
        KeyBinding([.character("r"), .control("r")], .refresh, "Refresh: push local changes, pull remote ones", hint: "sync",
                   disabledReason: { $0.status.server == nil ? AppState.localOnlyNotice : nil }),
        KeyBinding([.character("l")], .toggleLive, "Live sync on or off (changes sync by themselves)", hint: "live",
                   disabledReason: { $0.status.server == nil ? AppState.localOnlyNotice : nil }),
        KeyBinding([.character("h")], .history, "Conflict history: what was merged or chosen, and what lost", hint: "history"),
        KeyBinding([.character("s")], .openLayer(.share), "Share the list on screen, and see who shares it",
                   disabledReason: { state in
                       if state.status.server == nil { return AppState.localOnlyNotice }
                       if case .list = state.list.scope { return nil }
                       return "Show a list first (v, [ or ]): lists are what is shared"
                   }),
        KeyBinding([.character("x")], .openLayer(.export), "Export every item to a file (.txt: todo.txt, else JSON)"),
        KeyBinding([.character("L")], .openLayer(.signIn), "Sign in to the server", hint: "sign in",
                   disabledReason: { $0.status.server == nil ? AppState.localOnlyNotice : nil }),
        KeyBinding([.character("?")], .help, "Show this help", hint: "help"),
        KeyBinding([.character("q")], .quit, "Quit", hint: "quit"),
    ])

    /// The "Change 12 marked:" prompt; other keys edit its text.
    public static let markedChangePrompt = KeyTable<AddPromptAction>([
        KeyBinding([.enter], .submit, "Change every marked item (one undo step)", hint: "change"),
        KeyBinding([.escape], .cancel, "Cancel", hint: "cancel"),
    ])

    /// The "New item:" prompt at the bottom of the list; other keys edit its text.
    public static let addPrompt = KeyTable<AddPromptAction>([
        KeyBinding([.enter], .submit, "Add the item", hint: "add"),
        KeyBinding([.escape], .cancel, "Cancel", hint: "cancel"),
    ])

    /// The "Filter:" prompt; other keys edit the filter text.
    public static let filterPrompt = KeyTable<FilterAction>([
        KeyBinding([.enter], .keep, "Keep the filter and browse", hint: "keep"),
        KeyBinding([.escape], .clear, "Clear the filter", hint: "clear"),
        KeyBinding([.up], .move(.moveUp), "Move up"),
        KeyBinding([.down], .move(.moveDown), "Move down"),
        KeyBinding([.pageUp], .move(.pageUp), "Page up"),
        KeyBinding([.pageDown], .move(.pageDown), "Page down"),
    ])

    /// The question before deleting an item, or completing one with open subtasks.
    public static let confirm = KeyTable<ConfirmAction>([
        KeyBinding([.character("y"), .character("Y")], .yes, "Yes: delete it, or complete it, as asked", hint: "yes"),
        KeyBinding([.character("n"), .character("N"), .escape], .no, "No: leave it as it is", hint: "no"),
    ])

    /// The help overlay: arrows scroll it; these keys, and any other, close it.
    public static let help = KeyTable<HelpAction>([
        KeyBinding([.down, .character("j")], .scrollDown, "Scroll down", hint: "more"),
        KeyBinding([.up, .character("k")], .scrollUp, "Scroll up"),
        KeyBinding([.escape, .character("?")], .close, "Close the help (any key does)", hint: "close"),
    ])

    /// Editing keys of every text field (editor, prompts, sign-in); other characters are typed.
    public static let textField = KeyTable<TextEditAction>([
        KeyBinding([.left, .control("b")], .left, "Character left"),
        KeyBinding([.right, .control("f")], .right, "Character right"),
        KeyBinding([.wordLeft, .alt("b")], .wordLeft, "Word left"),
        KeyBinding([.wordRight, .alt("f")], .wordRight, "Word right"),
        KeyBinding([.home, .control("a")], .start, "Start of the line"),
        KeyBinding([.end, .control("e")], .end, "End of the line"),
        KeyBinding([.backspace], .deleteBack, "Delete the character before the cursor"),
        KeyBinding([.delete, .control("d")], .deleteForward, "Delete the character under the cursor"),
        KeyBinding([.control("w"), .altBackspace], .deleteWordBack, "Delete the word before the cursor"),
        KeyBinding([.alt("d")], .deleteWordForward, "Delete the word after the cursor"),
        KeyBinding([.control("u")], .clearToStart, "Clear to the start of the line"),
        KeyBinding([.control("k")], .clearToEnd, "Clear to the end of the line"),
        KeyBinding([.enter], .newLine, "New line (in Notes; Esc saves and goes back)"),
        KeyBinding([.up], .lineUp, "Line up (in Notes)"),
        KeyBinding([.down], .lineDown, "Line down (in Notes)"),
    ])

    /// Every row of the help overlay: the list's keys, the global ones, then the text fields'.
    public static let helpRows = list.helpRows + global.helpRows + [HelpRow(keys: "", title: "")]
        + [HelpRow(keys: "", title: "In text fields (editor, prompts, sign-in):")] + textField.helpRows

    /// The editor. Keys not bound here, or bound but disabled, edit the text field when it has focus.
    public static let editor = KeyTable<EditorAction>([
        KeyBinding([.tab], .nextField, "Next field", hint: "next field"),
        KeyBinding([.backTab], .previousField, "Previous field"),
        KeyBinding([.right, .character(" ")], .nextChoice, "Next choice (on Complete, Priority and List)",
                   hint: "change", disabledReason: choiceFieldOnly),
        KeyBinding([.left], .previousChoice, "Previous choice (on Complete, Priority and List)", disabledReason: choiceFieldOnly),
        KeyBinding([.character("y")], .setComplete(true), "Complete: Yes (on the Complete field)", disabledReason: completeFieldOnly),
        KeyBinding([.character("n")], .setComplete(false), "Complete: No (on the Complete field)", disabledReason: completeFieldOnly),
        KeyBinding([.enter], .save, "Save (when something changed) and go back; in Notes, a new line", hint: "save",
                   disabledReason: { $0.editor?.focus == .notes ? "In Notes Enter starts a new line — Esc saves" : nil }),
        KeyBinding([.escape], .back, "Back to the list, saving what changed (on blank text, twice drops it)", hint: "back"),
    ])

    /// The conflict dialog.
    public static let dialog = KeyTable<DialogAction>([
        KeyBinding([.left, .backTab], .previous, "Previous button"),
        KeyBinding([.right, .tab], .next, "Next button"),
        KeyBinding([.enter], .choose, "Choose the selected button", hint: "choose"),
        KeyBinding([.character("c"), .character("C")], .choice(.useClient), "Use Client / Keep Mine / Delete It: this device's side"),
        KeyBinding([.character("s"), .character("S")], .choice(.useServer), "Use Server / Delete It / Keep Theirs: the server's side"),
        KeyBinding([.escape], .choice(.cancel), "Cancel: stop the sync, keep the change pending", hint: "cancel"),
        KeyBinding([.character("a"), .character("A")], .toggleApplyToAll, "Apply the answer to the rest of this sync's conflicts",
                   hint: "apply to all", disabledReason: { $0.conflict?.prompt.offersApplyToAll == true ? nil : "Only one conflict so far" }),
    ])

    /// The view switcher (`v`).
    public static let scopeSwitcher = KeyTable<ScopeSwitcherAction>([
        KeyBinding([.up, .character("k")], .moveUp, "Move up"),
        KeyBinding([.down, .character("j")], .moveDown, "Move down"),
        KeyBinding([.enter], .choose, "Show this view", hint: "show"),
        KeyBinding([.escape, .character("v")], .close, "Back to the list", hint: "back"),
    ])

    /// The conflict history.
    public static let history = KeyTable<HistoryAction>([
        KeyBinding([.up, .character("k")], .moveUp, "Move up"),
        KeyBinding([.down, .character("j")], .moveDown, "Move down"),
        KeyBinding([.enter], .restore, "Restore the values that lost (a new local change)", hint: "restore"),
        KeyBinding([.escape, .character("h"), .character("q")], .close, "Back to the list", hint: "back"),
        KeyBinding([.character("?")], .help, "Show this help", hint: "help"),
    ])

    /// The "Export to:" prompt at the bottom of the list; other keys edit the file name.
    public static let exportPrompt = KeyTable<ExportAction>([
        KeyBinding([.enter], .submit, "Write every item to the file", hint: "export"),
        KeyBinding([.escape], .cancel, "Cancel", hint: "cancel"),
    ])

    /// The share dialog; other keys type the account's name.
    public static let shareDialog = KeyTable<ShareAction>([
        KeyBinding([.enter], .submit, "Share with the account typed (or give the selected member the role)", hint: "share"),
        KeyBinding([.tab], .toggleRole, "Role: editor (reads and writes) or viewer (reads only)", hint: "role"),
        KeyBinding([.up], .moveUp, "Select the member above"),
        KeyBinding([.down], .moveDown, "Select the member below"),
        KeyBinding([.control("x")], .remove, "Remove the selected member (owners), or leave (yourself)", hint: "remove"),
        KeyBinding([.escape], .close, "Close", hint: "close"),
    ])

    /// The sign-in dialog; other keys type into the focused field.
    public static let signIn = KeyTable<SignInAction>([
        KeyBinding([.tab, .backTab], .nextField, "Next field", hint: "next field"),
        KeyBinding([.enter], .submit, "Sign in", hint: "sign in"),
        KeyBinding([.escape], .cancel, "Not now (changes stay pending)", hint: "cancel"),
    ])

    private static let completeFieldOnly: @Sendable (AppState) -> String? = { state in
        state.editor?.focus == .complete ? nil : "Tab to the Complete field first"
    }

    private static let choiceFieldOnly: @Sendable (AppState) -> String? = { state in
        state.editor?.focus.isChoice == true ? nil : "Tab to Complete, Priority or List first"
    }
}

/// Keys that work in every view.
public enum GlobalAction: Sendable, Equatable { case quit }

/// What a key does on the list.
public enum ListAction: Sendable, Equatable {
    case moveUp, moveDown, pageUp, pageDown, first, last
    case open, add, editExternally, toggleComplete, delete, undo, redo, filter, toggleShowCompleted, toggleShowHeldBack, chooseScope, nextScope, previousScope
    case toggleFold, fold, unfold
    case cycleSort, moveItemUp, moveItemDown
    case toggleMark, markRange, markAll, clearMarks, changeMarked
    case refresh, toggleLive, history, help, quit
    /// Open a view that decides from the app's state how it opens (`OpenableLayer`).
    case openLayer(LayerOpener)
}

/// What a key does in the export prompt.
public enum ExportAction: Sendable, Equatable { case submit, cancel }

/// What a key does in the share dialog.
public enum ShareAction: Sendable, Equatable { case submit, toggleRole, moveUp, moveDown, remove, close }

/// What a key does in the sign-in dialog.
public enum SignInAction: Sendable, Equatable { case nextField, submit, cancel }

/// What a key does in the "New item:" prompt.
public enum AddPromptAction: Sendable, Equatable { case submit, cancel }

/// What a key does in the "Filter:" prompt.
public enum FilterAction: Sendable, Equatable {
    case keep, clear
    /// A movement of the list below the prompt.
    case move(ListAction)
}

/// What a key does in the delete confirmation.
public enum ConfirmAction: Sendable, Equatable { case yes, no }

/// What a key does in the help overlay.
public enum HelpAction: Sendable, Equatable { case scrollDown, scrollUp, close }

/// What an editing key does in a text field.
public enum TextEditAction: Sendable, Equatable {
    case left, right, wordLeft, wordRight, start, end
    case deleteBack, deleteForward, deleteWordBack, deleteWordForward, clearToStart, clearToEnd
    /// Multi-line fields only (the editor's notes).
    case newLine, lineUp, lineDown
}

/// What a key does in the editor.
public enum EditorAction: Sendable, Equatable { case nextField, previousField, nextChoice, previousChoice, setComplete(Bool), save, back }

/// What a key does in the conflict dialog.
public enum DialogAction: Sendable, Equatable {
    case previous, next, choose, toggleApplyToAll
    case choice(ConflictChoice)
}

/// What a key does in the view switcher.
public enum ScopeSwitcherAction: Sendable, Equatable { case moveUp, moveDown, choose, close }

/// What a key does in the conflict history.
public enum HistoryAction: Sendable, Equatable { case moveUp, moveDown, restore, close, help }
