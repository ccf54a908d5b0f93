import TableProtocol

/// A failed push of one operation, kept (`MS_TableOperationErrors`) until resolved.
public struct OperationError: Sendable, Hashable {
    /// The error's own id.
    public var id: Int64
    /// The queued operation it belongs to (resolutions act on it).
    public var operationId: Int64
    /// The operation's table.
    public var table: String
    /// The operation's item id.
    public var itemId: String
    /// The operation's space (nil: the account's own namespace).
    public var space: String? = nil
    /// The operation's type when it failed.
    public var operationType: TableOperationType
    /// The HTTP status, if a server answered.
    public var statusCode: Int?
    /// The error code.
    public var code: Int
    /// The error message.
    public var message: String
    /// The item that was sent.
    public var clientItem: JSONObject?
    /// The server's item (409/412), if any.
    public var serverItem: JSONObject?
    /// The raw response body, if any.
    public var rawResponse: String?

    /// True for a conflict nobody settled: a version conflict carrying the server's item, or an
    /// edit against a delete.
    public var isConflict: Bool {
        code == SyncErrorCode.preconditionFailed.rawValue || (serverItem != nil && (statusCode == 409 || statusCode == 412))
    }
}
