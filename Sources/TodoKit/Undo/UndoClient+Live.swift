extension UndoClient {
    /// The store's undo journal.
    public static func live(_ service: TodoService) -> UndoClient {
        UndoClient(undo: { try service.undo() }, redo: { try service.redo() })
    }
}
