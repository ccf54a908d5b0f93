import Foundation
import TableProtocol

/// The SDK's error codes; raw values are the reference client's, for logs and tests.
public enum SyncErrorCode: Int, Sendable, Hashable {
    case invalidAction = -1150
    case localStoreError = -1153
    case pushCompletedWithErrors = -1170
    case pushAbortedDataSource = -1171
    case pushAbortedNetwork = -1172
    case pushAbortedAuthentication = -1173
    case pushAbortedCancelled = -1174
    case purgeAbortedPendingChanges = -1180
    case pullCancelled = -1190
    case httpError = -1302
    /// A shared space is gone for this account (it was deleted, or the account left or was
    /// removed): `SyncContext.dropSpace` takes its rows and queued changes off the device.
    case spaceNotFound = -1310
    /// A shared space refused a write: this account may only read it (the server's 403 with
    /// `code: readOnlySpace`). `SyncContext.dropRefusedChanges` takes such changes back.
    case readOnlySpace = -1311
    /// The row moved to another namespace on the server (its list was shared or unshared on
    /// another device): `SyncError.movedToSpace` says where. A push moves the local row there
    /// and sends the change again; it is never a conflict.
    case itemMoved = -1312
    case preconditionFailed = -1303
    /// The server answered 401: no valid access token (sign in again).
    case authenticationFailed = -1305
    case invalidParameter = -1401
}

/// A failure of a local or remote table call, or of push, pull or purge.
public struct SyncError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public var code: SyncErrorCode
    /// A plain-words message.
    public var message: String
    /// The HTTP status, when a server answered.
    public var statusCode: Int?
    /// The server's current item, for 409/412 conflicts.
    public var serverItem: JSONObject?
    /// The operation errors of a push that completed with errors.
    public var operationErrors: [OperationError]
    /// The underlying error (transport, store), if any.
    public var underlying: (any Error & Sendable)?
    /// With `.itemMoved`: the shared space the row is in now (nil: the account's own namespace).
    public var movedToSpace: String?
    /// With `.itemMoved`: the row's new id there, when the move gave it one (its id was taken).
    public var movedToId: String?

    /// Creates an error.
    public init(_ code: SyncErrorCode, _ message: String, statusCode: Int? = nil, serverItem: JSONObject? = nil,
                operationErrors: [OperationError] = [], underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.statusCode = statusCode
        self.serverItem = serverItem
        self.operationErrors = operationErrors
        self.underlying = underlying
    }

    /// True when the server refused the access token (401), in a push, a pull or a table call.
    public var isAuthenticationFailure: Bool { statusCode == 401 }

    /// True for a 409 or 412 answer carrying the server's item.
    public var isConflict: Bool { serverItem != nil && (statusCode == 409 || statusCode == 412) }

    public var description: String {
        var text = "\(message) (\(code.rawValue)"
        if let statusCode { text += ", HTTP \(statusCode)" }
        return text + ")"
    }

    static func invalid(_ message: String) -> SyncError { SyncError(.invalidAction, message) }
    /// Any error as a `SyncError`: transport failures are network errors, the rest store errors.
    static func wrap(_ error: any Error) -> SyncError {
        if let error = error as? SyncError { return error }
        if let error = error as? TransportError { return SyncError(.pushAbortedNetwork, "The server cannot be reached (\(error))", underlying: error) }
        return store(error)
    }

    static func store(_ error: any Error) -> SyncError {
        if let error = error as? SyncError { return error }
        return SyncError(.localStoreError, "The local store failed: \(error)", underlying: StoreFailure(description: "\(error)"))
    }
}

/// A store error flattened to text so it can cross threads.
struct StoreFailure: Error, Sendable, CustomStringConvertible {
    var description: String
}
