import TableProtocol

/// What `SyncContext.undo()` or `redo()` did.
public struct UndoResult: Sendable {
    /// Which way the step went.
    public enum Direction: String, Sendable { case undo, redo }

    /// Undo or redo.
    public var direction: Direction
    /// One entry per item of the step, in the order they were applied.
    public var changes: [UndoneChange]

    /// True when any change of the step had reached the server already, so taking it back (or
    /// making it again) travels as a new change.
    public var sendsNewChange: Bool { changes.contains { $0.sendsNewChange } }
}

/// One item's part of an undo or redo step.
public struct UndoneChange: Sendable {
    /// The table.
    public var table: String
    /// The item's id.
    public var itemId: String
    /// The item's space (nil: the account's own namespace).
    public var space: String?
    /// The local change taken back (undo) or made again (redo).
    public var change: TableOperationType
    /// The item as it was just before this undo or redo (nil when absent).
    public var previous: JSONObject?
    /// The item now (nil when absent).
    public var item: JSONObject?
    /// True when the server had the change already, so this travels as a new change; false when
    /// the queued operation was simply taken back or adjusted.
    public var sendsNewChange: Bool
    /// True when nothing could be done: the item was deleted elsewhere since the change.
    public var itemGone: Bool
}
