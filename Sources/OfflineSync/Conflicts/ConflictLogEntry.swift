import Foundation
import TableProtocol

/// One settled conflict in the local conflict log (`MS_ConflictLog`): what each side held and
/// which values lost, so that they can be brought back.
public struct ConflictLogEntry: Sendable, Equatable {
    /// How the conflict was settled.
    public enum Resolution: String, Sendable, Hashable {
        /// Merged field by field without asking.
        case merged
        /// This device's values won.
        case client
        /// The server's values won.
        case server
        /// The push was stopped; the change stayed queued.
        case cancel
        /// A merge of the delegate's own (a choice per field).
        case fields
        /// The change could not be sent and left the queue (`reason` says why: a shared space
        /// the account left or was removed from); `local` is the item as this device had it.
        case notSent
        /// Another app's write was refused by the server, which kept it (a CalDAV app's stale
        /// edit that clashed with a newer change); recorded here by `recordConflicts`. `local` is
        /// what it sent, `lost` what it changed, and `reason` who sent it and why.
        case refusedOnServer
        /// A move between namespaces gave the row a new id, since the target held its id (a
        /// collaborator's row with one of the owner's ids); recorded by
        /// `SyncContext.followRenamedRows`. `local` is the row as this device had it under its
        /// old id, `server` names the new one, and `reason` says why.
        case movedWithNewId
    }

    /// The log's own id (ascending).
    public var id: Int64
    /// The table.
    public var table: String
    /// The item's id.
    public var itemId: String
    /// The item's space (nil: the account's own namespace).
    public var space: String?
    /// What each side did.
    public var kind: SyncConflict.Kind
    /// How it was settled.
    public var resolution: Resolution
    /// When it was settled.
    public var at: Date
    /// The fields involved (changed on both sides, or clashing).
    public var fields: [String]
    /// The last server version this device had, if any.
    public var base: JSONObject?
    /// What this device had.
    public var local: JSONObject?
    /// What the server had.
    public var server: JSONObject?
    /// The values that lost, by field; `deleted: true` when a deletion lost.
    public var lost: JSONObject
    /// When its losing values were restored, if they were.
    public var restoredAt: Date?
    /// Why, for a change that could not be sent (`.notSent`) or was refused (`.refusedOnServer`).
    public var reason: String?

    /// Creates an entry (the store gives it its id).
    public init(id: Int64 = 0, table: String, itemId: String, space: String? = nil, kind: SyncConflict.Kind, resolution: Resolution, at: Date,
                fields: [String], base: JSONObject?, local: JSONObject?, server: JSONObject?, lost: JSONObject, restoredAt: Date? = nil,
                reason: String? = nil) {
        self.id = id
        self.table = table
        self.itemId = itemId
        self.space = space
        self.kind = kind
        self.resolution = resolution
        self.at = at
        self.fields = fields
        self.base = base
        self.local = local
        self.server = server
        self.lost = lost
        self.restoredAt = restoredAt
        self.reason = reason
    }

    /// True when a deletion is what lost (restoring deletes the item again).
    public var lostADeletion: Bool { lost[SystemProperty.deleted] == .bool(true) }

    /// The most entries the log keeps; older ones are dropped first.
    public static let limit = 1_000
}
