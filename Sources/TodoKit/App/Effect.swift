import Foundation
import OfflineSync
import TodoModel

/// Work an `update` asks for, as plain data: `AppRuntime` runs each one against the
/// `AppEnvironment` and feeds its answer back as a message (`send` is handled inside `update`).
public enum Effect: Sendable, Equatable {
    /// Another message for the app, handled right after the current one.
    case send(AppMessage)
    /// Deliver a message after a delay (debounces and the spinner).
    case after(seconds: Double, AppMessage)
    /// Watch a window of the list (a live query, replacing the list's previous one) →
    /// `.list(.windowLoaded)` now and after every change to the table, or `.list(.windowFailed)`.
    case observeWindow(ListWindowRequest)
    /// Watch the list's row count (a live query, replacing the previous one) → `.list(.counted)`.
    case observeCount(CountRequest)
    /// Add the item a line describes (its list made when missing) → `.written`.
    case add(QuickAdd)
    /// Save an item edited since it was opened as `original` → `.editSaved` (a clash included).
    case save(TodoItem, original: TodoItem)
    /// Save an item over the stored one, whatever changed meanwhile (Use Client on an edit clash) → `.written`.
    case saveOver(TodoItem)
    /// Set one stored item's completion (the row of `space`, when two namespaces hold the id) → `.written`.
    case setComplete(id: String, space: String?, complete: Bool)
    /// Delete an item → `.written`.
    case delete(TodoItem)
    /// Take back the newest local change → `.undone`.
    case undo
    /// Make the change undone last again → `.undone`.
    case redo
    /// Run the person's editor on this text → `.externalEditFinished`.
    case runEditor(String)
    /// Read today's date → `.dayStarted`.
    case readDay
    /// Watch the lists (a live query) → `.listsLoaded`.
    case observeLists
    /// Watch which lists are shared, and how (a live query) → `.sharingLoaded`.
    case observeSharing
    /// Watch how many items each of these scopes holds (a live query, replacing the previous
    /// one) → `.scopeCountsLoaded`.
    case observeScopeCounts([ListScope], ScopeContext)
    /// Read the queue's state → `.statusLoaded`.
    case loadStatus
    /// Push then pull → `.synced`.
    case sync
    /// Read the stored version of the item open in the editor → `.editedItemLoaded`.
    case loadEditedItem(id: String)
    /// Start (or restart) live sync → `.liveChanged` and `.liveSynced` from then on.
    case startLive
    /// Stop live sync.
    case stopLive
    /// Sign in and keep the token → `.signedIn` or `.signIn(.failed)`.
    case signIn(user: String, password: String)
    /// Read who shares a list → `.shareDialog(.membersLoaded)` or `.failed`.
    case loadMembers(listId: String)
    /// Share a list (making it shared first if need be) → `.shareDialog(.shared)` or `.failed`.
    case shareList(listId: String, user: String, role: SpaceRole)
    /// Stop sharing a list with an account (or leave it) → `.shareDialog(.removed)` or `.failed`.
    case unshareList(listId: String, user: String)
    /// Give the push waiting on the question with this id the person's answer.
    case answer(questionId: UUID, ConflictAnswer)
    /// Watch the conflict log (a live query) → `.history(.loaded)` now and after every change;
    /// the person has now seen it.
    case observeConflicts
    /// Stop watching the conflict log (the history closed).
    case stopObservingConflicts
    /// Restore the values that lost in a conflict → `.history(.restored)`.
    case restoreConflict(id: Int64)
}

/// Which count of the list to make; `generation` tells whether it is still the newest asked for.
public struct CountRequest: Sendable, Hashable {
    /// Text the items must contain.
    public var filterText: String
    /// Whether completed items count.
    public var showCompleted: Bool
    /// The list's count generation when it was asked for.
    public var generation: Int
    /// Which items.
    public var scope: ListScope = .all
    /// What the scope's query needs.
    public var context = ScopeContext()
}
