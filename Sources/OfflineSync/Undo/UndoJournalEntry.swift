import TableProtocol

/// One item's local change as the undo journal keeps it: the row before and after.
public struct UndoJournalEntry: Sendable, Hashable {
    /// Recording order.
    public var id: Int64
    /// The undo step it belongs to (one local write, or one batch of them).
    public var step: Int64
    /// The table.
    public var table: String
    /// The item's id.
    public var itemId: String
    /// The item's space (nil: the account's own namespace).
    public var space: String?
    /// The row before the change; nil when the change inserted it.
    public var before: JSONObject?
    /// The row after the change; nil when the change deleted it.
    public var after: JSONObject?

    /// Creates an entry (the store assigns `id`).
    public init(id: Int64 = 0, step: Int64, table: String, itemId: String, space: String?, before: JSONObject?, after: JSONObject?) {
        (self.id, self.step, self.table, self.itemId, self.space, self.before, self.after) = (id, step, table, itemId, space, before, after)
    }

    /// What the recorded change did to the item.
    public var change: TableOperationType {
        switch (before, after) {
        case (nil, _): .insert
        case (_, nil): .delete
        default: .update
        }
    }
}
