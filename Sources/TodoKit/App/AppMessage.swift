import Foundation
import OfflineSync
import TodoModel

/// Everything that changes the app's state: keys, and results the sync service posts back.
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
    /// Open an item in the editor.
    case openEditor(TodoItem)
    /// Edit an item in the person's own editor, as a text file (`ItemFile`).
    case editExternally(TodoItem)
    /// The person's editor closed: the file as saved (nil: it did not run, for `error`).
    case externalEditFinished(String?, error: String?)
    /// Open the editor again on an item as stored now, with the person's unsaved values in it.
    case resumeEditing(stored: TodoItem, draft: TodoItem)
    /// The stored version of the item open in the editor, after a pull (nil: it is gone).
    case editedItemLoaded(id: String, TodoItem?)
    /// The editor's save finished (a clash raises the conflict dialog).
    case editSaved(EditSaveResult)
    /// The person asked for a sync (a key, or ↑ on the first row).
    case syncRequested
    /// A sync finished.
    case synced(SyncOutcome)
    /// A local write finished; `error` in plain words if it failed.
    case written(error: String?)
    /// Undo or redo finished, in words for the status bar ("Nothing to undo" included).
    case undone(String)
    /// The queue's state, read from the store.
    case statusLoaded(SyncSnapshot)
    /// A notice for the status bar.
    case notice(String)
    /// A message for the topmost open layer of its kind (`LayerMessage`; each dialog's folder
    /// names its own: `.shareDialog(…)`, `.signIn(…)`, `.history(…)`).
    case toLayer(AnyLayerMessage)
    /// Open a layer that decides from the app's state whether and how it opens (`OpenableLayer`).
    case open(LayerOpener)
    /// Signed in as this user; the token is kept.
    case signedIn(user: String)
    /// A push met a conflict that needs the person (the runtime holds the push's question by the prompt's id).
    case conflictRaised(ConflictPrompt)
    /// Open the conflict history.
    case openHistory
    /// Turn live sync on or off.
    case toggleLive
    /// Live sync's state changed.
    case liveChanged(LiveSyncState)
    /// Live sync pushed or pulled by itself.
    case liveSynced(LiveSyncActivity, SyncOutcome)
    /// A pull (manual or live) received another page.
    case pullProgress(PullProgress)
    /// The spinner's timer fired.
    case tick
    /// Today's date, and the seconds until it ends (rows say "today", "overdue").
    case dayStarted(DueDate, secondsLeft: Double)
    /// The day ended: read the new one.
    case dayEnded
    /// The lists, as stored now (a live query).
    case listsLoaded([TodoList])
    /// A message a capability handles itself (`CapabilityMessage`; each folder names its own:
    /// `.sharingLoaded(…)`).
    case capability(AnyCapabilityMessage)
    /// Open items per scope, as stored now (a live query).
    case scopeCountsLoaded([ListScope: Int])
    /// Show the scope so many places after the current one in the sidebar's order (-1: before).
    case cycleScope(Int)
    /// Show this scope.
    case chooseScope(ListScope)
    /// Open the view switcher.
    case openScopeSwitcher
    /// Quit the app.
    case quit
}

/// How a sync ended, in the words the status bar needs.
public enum SyncOutcome: Sendable, Equatable {
    /// Push and pull both succeeded, at this time.
    case succeeded(at: Date)
    /// It failed, in plain words, and why.
    case failed(message: String, reason: SyncFailureReason)

    /// A failed sync in plain words, with `pending` changes still queued.
    public static func failed(_ error: any Error, pending: Int) -> SyncOutcome {
        let error = SyncError.wrapping(error)
        return .failed(message: SyncStatus.describe(error, pending: pending), reason: SyncFailureReason(error))
    }
}

/// Why a sync failed, as far as the status bar cares.
public enum SyncFailureReason: Sendable, Equatable {
    /// The server could not be reached.
    case offline
    /// The server refused the access token (or there was none): sign in.
    case signedOut
    /// Anything else (the server answered).
    case other

    /// Why `error` stopped a sync.
    init(_ error: SyncError) {
        if error.code == .pushAbortedNetwork {
            self = .offline
        } else if error.isAuthenticationFailure || error.code == .pushAbortedAuthentication {
            self = .signedOut
        } else {
            self = .other
        }
    }

    /// What the status bar says of the connection after such a failure.
    var connectivity: SyncStatus.Connectivity {
        switch self {
        case .offline: return .offline
        case .signedOut: return .signedOut
        case .other: return .online
        }
    }
}

extension SyncError {
    /// The error as a `SyncError` (anything else is the local store's).
    static func wrapping(_ error: any Error) -> SyncError {
        error as? SyncError ?? SyncError(.localStoreError, "\(error)")
    }
}
