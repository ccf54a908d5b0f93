import TableProtocol

/// A failure the protocol answers with a specific status and an `{"error": …}` body,
/// or (for conflicts) with the server's current item.
public enum TableError: Error, Sendable, Equatable {
    case badRequest(String)
    case notFound(String)
    case tableNotFound
    case conflict(StoredItem)
    case preconditionFailed(StoredItem)
    case payloadTooLarge(Int)
    /// No valid access token (answered with `WWW-Authenticate: Bearer`).
    case unauthorized(String)
    /// Too many failed logins; try again after this many seconds.
    case tooManyRequests(retryAfter: Int)
    /// A limit of the server or of the account is reached (429 with a message); try again after this many seconds.
    case busy(String, retryAfter: Int)
    /// The server will not take this request now (503 with a message): too many of the account's
    /// heavy requests at once, or one past its deadline; try again after this many seconds.
    case overloaded(String, retryAfter: Int)
    /// The caller may see this but not do it (a viewer's write, a member managing members).
    case forbidden(String)
    /// The request cannot apply to the state it meets (409 with a message, no item).
    case refused(String)
    /// No such shared space, or the caller is not one of its members (404, `code: spaceNotFound`).
    case spaceNotFound
    /// A viewer's write to a shared space (403, `code: readOnlySpace`).
    case readOnlySpace
    /// A write to a row that a move took to `namespace` (`MoveRecords`), as the table service
    /// finds it. The routes say where only to a caller who may write there (`itemMoved`);
    /// anyone else, and anything that does not translate it, gets a plain 404.
    /// `id`: the row's id there when the move gave it a new one (its id was taken there).
    case movedAway(namespace: String, id: String?)
    /// The item moved to a shared space (`space`) or to the caller's own namespace (nil): 404
    /// with `code: itemMoved` and `movedTo: {"space": …}` (and `"id"` when the move gave it a new
    /// one), so the change goes there.
    case itemMoved(space: String?, id: String?)

    /// The HTTP status code.
    public var status: Int {
        switch self {
        case .badRequest: return 400
        case .notFound, .tableNotFound, .spaceNotFound, .movedAway, .itemMoved: return 404
        case .conflict, .refused: return 409
        case .forbidden, .readOnlySpace: return 403
        case .preconditionFailed: return 412
        case .payloadTooLarge: return 413
        case .unauthorized: return 401
        case .tooManyRequests, .busy: return 429
        case .overloaded: return 503
        }
    }

    /// The `code` the error's body carries beside its message, for the failures a client must
    /// tell apart from others of the same status.
    public var protocolCode: ProtocolErrorCode? {
        switch self {
        case .spaceNotFound: return .spaceNotFound
        case .readOnlySpace: return .readOnlySpace
        case .itemMoved: return .itemMoved
        default: return nil
        }
    }

    /// The human-readable message.
    public var message: String {
        switch self {
        case .badRequest(let m), .notFound(let m), .unauthorized(let m), .busy(let m, _), .overloaded(let m, _), .forbidden(let m), .refused(let m): return m
        case .tooManyRequests(let seconds): return "Too many failed sign-ins; try again in \(seconds) seconds"
        case .tableNotFound: return "The table does not exist"
        case .spaceNotFound: return "There is no such space (or you are not one of its members)"
        case .readOnlySpace: return "You are a viewer of this space: it is read-only for you (its owners can make you an editor)"
        case .movedAway: return Self.itemNotFound.message
        case .itemMoved(let space, _):
            return space == nil ? "The item moved to your own lists" : "The item moved to a shared space"
        case .conflict: return "The item already exists or its version does not match"
        case .preconditionFailed: return "The item has been changed since the given version"
        case .payloadTooLarge(let limit): return "The request body is larger than the limit of \(limit) bytes"
        }
    }

    static let itemNotFound = TableError.notFound("The item does not exist")

    /// The error's JSON body: `{"error": …}`, with the `code` (and for a moved item, `movedTo`)
    /// a client tells it apart by. Conflicts answer with the item instead.
    var body: JSONObject {
        var body = JSONObject([("error", .string(message))])
        if let code = protocolCode { body["code"] = .string(code.rawValue) }
        if case .itemMoved(let space, let id) = self {
            var movedTo = JSONObject([("space", space.map(JSONValue.string) ?? .null)])
            if let id { movedTo["id"] = .string(id) }
            body["movedTo"] = .object(movedTo)
        }
        return body
    }
}
