import OfflineSync
import TodoModel

/// Undo and redo of local changes, in words for the status bar.
public struct UndoStore: StoreFacet {
    let store: TodoStore

    /// Takes back the newest local change; answers what it did in words, or nil when there was nothing to undo.
    public func undo() throws -> String? { try context.undo().map(UndoNotice.text) }

    /// Makes the change undone last again; answers what it did in words, or nil when there was nothing to redo.
    public func redo() throws -> String? { try context.redo().map(UndoNotice.text) }
}

extension TodoStore {
    /// Undo and redo.
    public var undoing: UndoStore { UndoStore(store: self) }
}
