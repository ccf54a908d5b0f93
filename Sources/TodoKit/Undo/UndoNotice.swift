import OfflineSync
import TableProtocol
import TodoModel

/// The words for what undo or redo did, shared by the status bar and `todo undo` / `todo redo`.
public enum UndoNotice {
    /// Said when the journal has no step to take back.
    public static let nothingToUndo = "Nothing to undo"
    /// Said when nothing was undone since the last change.
    public static let nothingToRedo = "Nothing to redo"

    /// One line: what was taken back or made again, and whether it travels as a new change.
    public static func text(for result: UndoResult) -> String {
        let verb = result.direction == .undo ? "Undid" : "Redid"
        guard let first = result.changes.first else { return verb }
        if result.changes.allSatisfy(\.itemGone) {
            return "Cannot \(result.direction.rawValue) the \(noun(first.change)) of \(quoted(first)): it was deleted on another device"
        }
        var text = result.changes.count == 1
            ? "\(verb) \(noun(first.change)) of \(quoted(first))"
            : "\(verb) \(kind(of: result.changes)) of \(counted(result.changes))"
        if result.sendsNewChange {
            text += result.direction == .undo
                ? " — it was synced already, so the old values go to the server as a new change"
                : " — sent to the server as a new change"
        }
        return text
    }

    private static func noun(_ change: TableOperationType) -> String {
        switch change {
        case .insert: "add"
        case .update: "edit"
        case .delete: "delete"
        }
    }

    /// "add", "edit" or "delete" when every change of a step is one; "a change" when they differ.
    private static func kind(of changes: [UndoneChange]) -> String {
        let kinds = Set(changes.map(\.change))
        return kinds.count == 1 ? noun(changes[0].change) : "a change"
    }

    /// "2 items", "3 lists", "10 items and 2 lists": an import's step adds both.
    private static func counted(_ changes: [UndoneChange]) -> String {
        let lists = changes.filter { $0.table.lowercased() == TodoList.tableName.lowercased() }.count
        let items = changes.count - lists
        let parts = [(items, "item"), (lists, "list")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
        return parts.joined(separator: " and ")
    }

    /// The item's text (a list's name) as it is now, or as it was when the step removed it.
    private static func quoted(_ change: UndoneChange) -> String {
        let row = change.item ?? change.previous
        let text = row?["text"]?.stringValue ?? row?["name"]?.stringValue ?? change.itemId
        let short = text.count > 40 ? String(text.prefix(39)) + "…" : text
        return "“\(short)”"
    }
}
