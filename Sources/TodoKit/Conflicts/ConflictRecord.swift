import Foundation
import OfflineSync
import TableProtocol

/// One settled conflict as the history screen and `todo conflicts` show it.
public struct ConflictRecord: Sendable, Equatable, Identifiable {
    /// The log entry's id (what `todo restore` takes).
    public var id: Int64
    /// The item's id.
    public var itemId: String
    /// The item's text (this device's, else the server's).
    public var text: String
    /// What each side did.
    public var kind: SyncConflict.Kind
    /// How it was settled.
    public var resolution: ConflictLogEntry.Resolution
    /// When.
    public var at: Date
    /// The fields involved.
    public var fields: [String]
    /// The values that lost, by field (`deleted: true` when a deletion lost).
    public var lost: JSONObject
    /// True once its losing values were restored.
    public var restored: Bool
    /// Why a change could not be sent (a shared list left or taken away), for `.notSent`, or
    /// which app's edit the server refused, for `.refusedOnServer`.
    public var reason: String?
    /// Who wrote the server's side (an account's name), when the server said.
    public var serverChangedBy: String?

    /// Reads a log entry.
    public init(_ entry: ConflictLogEntry) {
        id = entry.id
        itemId = entry.itemId
        text = (entry.local?["text"] ?? entry.server?["text"])?.stringValue ?? ""
        kind = entry.kind
        resolution = entry.resolution
        at = entry.at
        fields = entry.fields
        lost = entry.lost
        restored = entry.restoredAt != nil
        reason = entry.reason
        serverChangedBy = entry.server?[SystemProperty.updatedBy]?.stringValue
    }

    /// True when something lost and can be brought back.
    public var canRestore: Bool { !lost.isEmpty }

    /// What lost, in a few words: `text: "buy milk"`, or `the deletion`.
    public var lostSummary: String {
        if lost.isEmpty { return "nothing lost" }
        if lost[SystemProperty.deleted] == .bool(true) { return "lost: the deletion" }
        return "lost: " + lost.map { "\($0.key) \(Self.quoted($0.value))" }.joined(separator: ", ")
    }

    /// What happened, in a few words, naming who changed the server's side when known.
    public var summary: String {
        guard let who = serverChangedBy, ![.notSent, .refusedOnServer, .movedWithNewId].contains(resolution) else { return outcome }
        return outcome + " (theirs by \(who))"
    }

    private var outcome: String {
        switch (kind, resolution) {
        case (_, .cancel): return "sync cancelled"
        case (_, .notSent): return "not sent: " + (reason ?? "the server would not take it")
        case (_, .refusedOnServer): return "not stored: " + (reason ?? "the server refused another app's edit")
        case (_, .movedWithNewId): return "kept with a new id: " + (reason ?? "its id was taken where it moved")
        case (.edit, .merged): return "merged " + fields.joined(separator: ", ")
        case (.edit, .client): return "kept yours"
        case (.edit, .server): return "kept the server's"
        case (.edit, .fields): return "merged by hand"
        case (.deletedOnServer, .server): return "deleted on the server"
        case (.deletedOnServer, _): return "kept yours (deleted on the server)"
        case (.deletedLocally, .client): return "deleted (changed on the server)"
        case (.deletedLocally, _): return "kept the server's (you deleted it)"
        }
    }

    static func quoted(_ value: JSONValue) -> String {
        if case .string(let s) = value { return "\"\(s)\"" }
        return ConflictPrompt.display(value)
    }
}
