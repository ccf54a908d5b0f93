import Foundation
import OfflineSync
import TableProtocol

/// A conflict to show the person, as plain data: for each field in question what it was, what
/// this device has and what the server has. A push waiting for the answer is held by the runtime
/// under the prompt's `id`; an editor's clash carries what its answer needs.
public struct ConflictPrompt: Sendable, Equatable {
    /// Who asks, and so where the answer goes.
    public enum Origin: Sendable, Equatable {
        /// A push, waiting for the answer (`Effect.answer`).
        case push
        /// The editor's save, which clashed with a change made elsewhere.
        case editor(EditClash)
    }

    /// One field in question.
    public struct Field: Sendable, Hashable {
        /// The field's name.
        public var name: String
        /// Its value in the last version this device had from the server; nil when it had none.
        public var was: String?
        /// This device's value, as text.
        public var yours: String
        /// The server's value, as text.
        public var servers: String

        /// One field of a conflict.
        public init(name: String, was: String?, yours: String, servers: String) {
            self.name = name
            self.was = was
            self.yours = yours
            self.servers = servers
        }
    }

    /// Tells this question from every other.
    public var id: UUID
    /// The item's id.
    public var itemId: String
    /// What each side did to the item.
    public var kind: SyncConflict.Kind
    /// The fields in question (the clashing ones).
    public var fields: [Field]
    /// When the server's side was written, when known.
    public var serverChangedAt: Date?
    /// Who wrote the server's side (an account's name), when the server says.
    public var serverChangedBy: String?
    /// True from the second question of one sync on: the answer may then apply to the rest.
    public var offersApplyToAll: Bool
    /// Who asks.
    public var origin: Origin

    /// Creates a prompt.
    public init(id: UUID = UUID(), itemId: String, kind: SyncConflict.Kind = .edit, fields: [Field], serverChangedAt: Date? = nil,
                serverChangedBy: String? = nil, offersApplyToAll: Bool = false, origin: Origin = .push) {
        self.id = id
        self.itemId = itemId
        self.kind = kind
        self.fields = fields
        self.serverChangedAt = serverChangedAt
        self.serverChangedBy = serverChangedBy
        self.offersApplyToAll = offersApplyToAll
        self.origin = origin
    }

    /// The prompt for a conflict the SDK could not settle by itself.
    init(_ conflict: SyncConflict, offersApplyToAll: Bool) {
        let server = conflict.server ?? JSONObject()
        var names = conflict.clashingFields
        if names.isEmpty { names = ThreeWayMerge(base: nil, local: conflict.local, server: server).clashingFields }
        self.init(itemId: conflict.itemId, kind: conflict.kind,
                  fields: Self.fields(names, base: conflict.base, local: conflict.local, server: conflict.server),
                  serverChangedAt: conflict.server?[SystemProperty.updatedAt]?.stringValue.flatMap(SyncDateFormat.date(from:)),
                  serverChangedBy: conflict.server?[SystemProperty.updatedBy]?.stringValue, offersApplyToAll: offersApplyToAll)
    }

    /// "changed by NAME at 13:14", "changed at 13:14", or "" when neither is known (`clock`
    /// spells a time as the status bar does).
    public func serverChangeNote(clock: (Date) -> String) -> String {
        switch (serverChangedBy, serverChangedAt) {
        case (let who?, let when?): return "changed by \(who) at \(clock(when))"
        case (let who?, nil): return "changed by \(who)"
        case (nil, let when?): return "changed \(clock(when))"
        case (nil, nil): return ""
        }
    }

    /// The named fields as the dialog shows them: was (nil without a base), yours, and the
    /// server's ("(gone)" when it has no item).
    static func fields(_ names: [String], base: JSONObject?, local: JSONObject, server: JSONObject?) -> [Field] {
        names.map { name in
            Field(name: name, was: base.map { display(ThreeWayMerge.value(name, in: $0)) },
                  yours: display(ThreeWayMerge.value(name, in: local)),
                  servers: server.map { display(ThreeWayMerge.value(name, in: $0)) } ?? "(gone)")
        }
    }

    static func display(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s
        case .bool(let b): return b ? "Yes" : "No"
        case .null: return "(none)"
        default: return JSONWriter.string(value)
        }
    }
}

/// The three answers of the conflict dialog.
public enum ConflictChoice: String, Sendable, CaseIterable {
    /// Keep this device's values (re-create an item deleted on the server; delete anyway).
    case useClient
    /// Keep the server's values (or its deletion); this device's values go to the conflict log.
    case useServer
    /// Stop the push; the change stays queued.
    case cancel

    /// The SDK's answer for this choice.
    var resolution: ConflictResolution {
        switch self {
        case .useClient: return .client
        case .useServer: return .server
        case .cancel: return .cancel
        }
    }
}

/// The person's answer to a conflict prompt.
public struct ConflictAnswer: Sendable, Equatable {
    /// The button chosen.
    public var choice: ConflictChoice
    /// Whether it answers the rest of this sync's conflicts too.
    public var applyToAll: Bool

    /// An answer.
    public init(_ choice: ConflictChoice, applyToAll: Bool = false) {
        self.choice = choice
        self.applyToAll = applyToAll
    }
}

/// How conflicts are answered: by asking (the full-screen UI) or by a fixed rule (scripts).
public enum ConflictPolicy: Sendable {
    /// Ask, and wait for the answer.
    case ask(@Sendable (ConflictPrompt) async -> ConflictAnswer)
    /// Always the same answer.
    case always(ConflictChoice)
    /// Leave the conflict as an error (headless `sync` without `--on-conflict`).
    case fail
}
