import Foundation
import OfflineSync
import TodoModel

/// Everything that changes the app's state: keys, the runtime's own answers, and one case per
/// capability holding that capability's messages (declared and applied in its folder,
/// `CapabilityMessage`), so a missing case fails to compile and nothing is routed by cast.
public enum AppMessage: Sendable, Equatable {
    /// The app opened: load the list and the queue's state, and listen for conflict questions and pull progress.
    case started
    /// A key press.
    case key(KeyEvent)
    /// A message for the list.
    case list(TodoListViewModel.Message)
    /// Open a view over the others (a prompt, a confirmation).
    case push(Layer)
    /// Open the help over the top view, with its keys.
    case openHelp([HelpRow])
    /// Open a layer that decides from the app's state whether and how it opens (`OpenableLayer`).
    case open(LayerOpener)
    /// A local write finished; `error` in plain words if it failed (`AppRuntime.write`).
    case written(error: String?)
    /// A notice for the status bar.
    case notice(String)
    /// The spinner's timer fired.
    case tick
    /// Today's date, and the seconds until it ends (rows say "today", "overdue").
    case dayStarted(DueDate, secondsLeft: Double)
    /// The day ended: read the new one.
    case dayEnded
    /// Quit the app.
    case quit
    /// The lists, the sidebar's counts and the view switcher.
    case lists(ListsMessage)
    /// The editor, the person's own editor, and saves.
    case items(ItemsMessage)
    /// Undo and redo.
    case undo(UndoMessage)
    /// Conflict questions and the conflict history.
    case conflicts(ConflictsMessage)
    /// Syncing and live sync.
    case sync(SyncMessage)
    /// Signing in.
    case signIn(SignInMessage)
    /// Sharing lists.
    case sharing(SharingMessage)
    /// Reminders'.
    case reminders(RemindersMessage)
}

/// A capability's messages: applied to the app by the capability, in its folder.
public protocol CapabilityMessage: Sendable, Equatable {
    /// Applies the message; answers the effects it needs.
    func apply(to state: inout AppState) -> [Effect]
}
