import OfflineSync

/// What undo and redo ask of the outside: the store's undo journal.
public struct UndoClient: Sendable {
    /// Takes back the newest local change; its words, or nil when there was nothing to undo.
    public var undo: @Sendable () async throws -> String?
    /// Makes the change undone last again; its words, or nil when there was nothing to redo.
    public var redo: @Sendable () async throws -> String?

    /// A client of these closures.
    public init(undo: @escaping @Sendable () async throws -> String?, redo: @escaping @Sendable () async throws -> String?) {
        self.undo = undo
        self.redo = redo
    }
}
