/// Work an `update` asks for, as plain data: `AppRuntime` runs each one and feeds its answer back
/// as a message (`send` is handled inside `update`). Beside the runtime's own few, one case per
/// capability holds that capability's effects, declared and run in its folder (`CapabilityEffect`):
/// a new capability adds its case here and its branch to `AppRuntime.run`, and the compiler finds
/// any place that forgot it.
public enum Effect: Sendable, Equatable {
    /// Another message for the app, handled right after the current one.
    case send(AppMessage)
    /// Deliver a message after a delay (debounces and the spinner).
    case after(seconds: Double, AppMessage)
    /// Read today's date → `.dayStarted`.
    case readDay
    /// The list's window and count.
    case listView(ListViewEffect)
    /// The lists and the sidebar's counts.
    case lists(ListsEffect)
    /// Reading and writing items.
    case items(ItemsEffect)
    /// Undo and redo.
    case undo(UndoEffect)
    /// Conflict questions and the conflict history.
    case conflicts(ConflictsEffect)
    /// Syncing with the server.
    case sync(SyncEffect)
    /// Signing in.
    case signIn(SignInEffect)
    /// Sharing lists.
    case sharing(SharingEffect)
    /// Exporting to a file.
    case export(ExportEffect)
    /// Reminders coming due.
    case reminders(RemindersEffect)
}
