extension UndoClient {
    /// The store's undo journal.
    public static func live(_ store: TodoStore) -> UndoClient {
        UndoClient(undo: { try store.undoing.undo() }, redo: { try store.undoing.redo() })
    }
}
