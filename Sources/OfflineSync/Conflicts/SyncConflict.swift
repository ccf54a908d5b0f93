import TableProtocol

/// A push that met a newer server state than the one the local change was made on.
public struct SyncConflict: Sendable {
    /// What each side did to the item.
    public enum Kind: String, Sendable, Hashable {
        /// Both sides edited it (or inserted it with one id).
        case edit
        /// This device edited it; the server deleted it.
        case deletedOnServer
        /// This device deleted it; the server changed it.
        case deletedLocally
    }

    /// What each side did.
    public let kind: Kind
    /// The table.
    public let table: String
    /// The item's id.
    public let itemId: String
    /// The item's space (nil: the account's own namespace).
    public let space: String?
    /// The last version this device had from the server; nil when it never had one.
    public let base: JSONObject?
    /// The item this device wants (for `.deletedLocally`, the item as it was deleted).
    public let local: JSONObject
    /// The server's item now; nil when the server no longer has it at all.
    public let server: JSONObject?
    /// The field comparison (for the deletion kinds: local against server, every differing field).
    public let comparison: ThreeWayMerge

    /// Fields changed on both sides to different values (every differing field without a base).
    /// Deletion conflicts list the fields whose values the deletion would lose.
    public var clashingFields: [String] { comparison.clashingFields }

    init(kind: Kind, table: String, itemId: String, space: String?, base: JSONObject?, local: JSONObject, server: JSONObject?,
         rules: [String: ColumnMergeRule] = [:]) {
        self.kind = kind
        self.table = table
        self.itemId = itemId
        self.space = space
        self.base = base
        self.local = local
        self.server = server
        // A deletion conflict lists every value the deletion would lose: no column rule applies.
        comparison = ThreeWayMerge(base: kind == .edit ? base : nil, local: local, server: server ?? JSONObject(),
                                   rules: kind == .edit ? rules : [:])
    }

    /// True when a field merge settles it without asking: an edit on each side, no field clashing.
    var mergesCleanly: Bool { kind == .edit && base != nil && clashingFields.isEmpty }
}

/// The delegate's answer to a conflict.
public enum ConflictResolution: Sendable, Equatable {
    /// Keep this device's values (for an edit with a field merge, only the clashing fields are
    /// taken from this device); re-create an item deleted on the server; delete an item anyway.
    case client
    /// Keep the server's item (or its deletion); this device's clashing values go to the conflict log.
    case server
    /// Stop the push; the change stays queued and asks again next time.
    case cancel
    /// Push this item (the delegate's own merge) with the server's version.
    case merged(JSONObject)
}
