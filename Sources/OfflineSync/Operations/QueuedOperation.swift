import TableProtocol

/// One row of the persistent operation queue (`MS_TableOperations`).
public struct QueuedOperation: Sendable, Hashable {
    /// Queue position; ascending across all tables.
    public var id: Int64
    /// The table the item belongs to.
    public var table: String
    /// The item's id.
    public var itemId: String
    /// The shared space the item is in (nil: the account's own namespace): with `itemId`, the
    /// item's key in the local store, where two namespaces may hold one id.
    public var space: String?
    /// What to send.
    public var type: TableOperationType
    /// For deletes: the item as it was when deleted (its version goes into `If-Match`). For
    /// updates: the values its sends carried while no answer said whether the server took
    /// them (`UnansweredSends`), nil before the first send.
    public var snapshot: JSONObject?
    /// A push has put it on the wire before, and no answer finished it: the server may hold it
    /// already, so a local change back to the item's base copy must still send it.
    public var sent = false
}
