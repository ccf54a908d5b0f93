import Foundation
import TableProtocol

/// The protocol extensions a server offers (`GET /capabilities`); a server without the
/// document (the Azure servers) offers none, and the SDK keeps to the base protocol.
public struct ServerCapabilities: Sendable, Equatable {
    /// The batch endpoint and its limits.
    public struct Batch: Sendable, Equatable {
        /// Its path below the server URL.
        public var path: String
        /// Most operations per request.
        public var maxOperations: Int
        /// Largest request body in bytes.
        public var maxBytes: Int
        /// Whether a write stored as sent may be answered with its stamps alone (`"return": "minimal"`).
        public var returnMinimal = false
    }

    /// Batched push, when offered.
    public var batch: Batch?
    /// Whether tables have change feeds.
    public var changeFeed: Bool
    /// The path of the feed of every table of the account's namespaces (its own and its shared
    /// spaces') over one connection, when the server has one.
    public var combinedFeedPath: String?
    /// Whether the server has shared spaces (`/spaces`, `?space=`).
    public var sharedSpaces = false
    /// The largest `$top` a query may ask for, when the server says.
    public var maxTop: Int?
    /// Whether an incremental pull may page by its last row's (`updatedAt`, `id`) instead of
    /// `$skip`: the server orders rows by both and gives each commit a later `updatedAt`.
    public var keysetPaging: Bool
    /// Whether each commit's `updatedAt` belongs to it alone, per table: every row at the stamp
    /// of a write this client made was written by that commit, so a pull may leave them out.
    public var uniqueCommitStamps: Bool

    /// A server that offers nothing beyond the base protocol.
    public static let none = ServerCapabilities(batch: nil, changeFeed: false)

    /// Reads the document; anything unrecognised counts as not offered.
    init(document: JSONObject) {
        if let batch = document["batch"]?.objectValue, let path = batch["path"]?.stringValue,
           let operations = batch["maxOperations"]?.wholeNumberValue, let bytes = batch["maxBytes"]?.wholeNumberValue,
           operations >= 1, bytes >= 1 {
            self.batch = Batch(path: path, maxOperations: operations, maxBytes: bytes,
                               returnMinimal: batch["returnMinimal"]?.boolValue ?? false)
        }
        changeFeed = document["changeFeed"]?.boolValue ?? false
        combinedFeedPath = changeFeed ? document["combinedFeed"]?.objectValue?["path"]?.stringValue : nil
        sharedSpaces = document["spaces"]?.objectValue?["path"]?.stringValue != nil
        let query = document["query"]?.objectValue
        maxTop = query?["maxTop"]?.wholeNumberValue.flatMap { $0 >= 1 ? $0 : nil }
        keysetPaging = query?["keysetPaging"]?.boolValue ?? false
        uniqueCommitStamps = query?["uniqueCommitStamps"]?.boolValue ?? false
    }

    init(batch: Batch?, changeFeed: Bool, maxTop: Int? = nil, keysetPaging: Bool = false, uniqueCommitStamps: Bool = false) {
        self.batch = batch
        self.changeFeed = changeFeed
        self.maxTop = maxTop
        self.keysetPaging = keysetPaging
        self.uniqueCommitStamps = uniqueCommitStamps
    }
}

extension SyncClient {
    /// What the server offers beyond the base protocol, asked once per client. A server that
    /// answers anything but the document (404 on the Azure servers) offers nothing; a network
    /// failure throws and is asked again next time.
    public func capabilities() async throws -> ServerCapabilities {
        if let known = knownCapabilities.withLock({ $0 }) { return known }
        let reply = try await send("GET", url: url("capabilities"), features: RemoteTable.tableFeatures)
        if reply.status >= 500 { return .none }  // not remembered: the server may be starting
        let found = reply.status == 200 ? (try? JSONText.decode(reply.body).objectValue).map(ServerCapabilities.init(document:)) ?? .none : .none
        knownCapabilities.withLock { $0 = found }
        return found
    }
}
