/// Work an `update` asks for: run by the sync service on its background queue (or, for `send`,
/// at once by the app), each answered by a message on the UI loop.
public enum Effect: Sendable, Equatable {
    /// Another message for the app, handled right after the current one.
    case send(AppMessage)
    /// Deliver a message after a delay (debounces and the spinner).
    case after(seconds: Double, AppMessage)
    /// Read a window of the list → `.list(.windowLoaded)` or `.list(.windowFailed)`.
    case loadWindow(ListWindowRequest)
    /// Count the list's rows → `.list(.counted)`.
    case count(CountRequest)
    /// Add an item with this text → `.written`.
    case add(String)
    /// Save an item edited since it was opened as `original` → `.editSaved` or `.conflictRaised`.
    case save(TodoItem, original: TodoItem)
    /// Set one stored item's completion → `.written`.
    case setComplete(id: String, complete: Bool)
    /// Delete an item → `.written`.
    case delete(TodoItem)
    /// Take back the newest local change → `.undone`.
    case undo
    /// Make the change undone last again → `.undone`.
    case redo
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
    /// Give the waiting push the person's answer to a conflict (and whether it answers the rest of the sync).
    case answer(ConflictPrompt, ConflictChoice, applyToAll: Bool)
    /// Read the conflict log → `.history(.loaded)`; the person has now seen it.
    case loadConflicts
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
}
