import TodoKit

extension InMemoryEnvironment {
    /// Undo and redo over the writes' snapshots.
    public var undoClient: UndoClient {
        UndoClient(undo: { [self] in step(from: \.undo, to: \.redo, verb: "Undid") },
                   redo: { [self] in step(from: \.redo, to: \.undo, verb: "Redid") })
    }
}
