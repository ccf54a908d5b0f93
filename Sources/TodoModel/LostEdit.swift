import Foundation
import TableProtocol

/// An edit a server face received and could not store, kept so that nothing a person typed is
/// lost: a CalDAV app's stale write whose fields clashed with a newer change, or its stale
/// deletion of a task changed since (412; DAVx5 then drops the edit on the phone). A row of the
/// `TodoLostEdit` table in the item's namespace, so every device that syncs the item's list
/// pulls it; `todo` adds each one to its conflict history once, where its values can be
/// restored onto the item.
public struct LostEdit: Sendable, Equatable, Identifiable {
    /// The lost edits' table name on the server.
    public static let tableName = "TodoLostEdit"

    /// The row's own id.
    public var id: String
    /// The item the edit was for.
    public var itemId: String
    /// The fields both sides changed to different values (item column names); for a deletion,
    /// the fields changed since the version it was made on.
    public var fields: [String]
    /// Every value the edit changed, by item column, as JSON object text: what restoring brings
    /// back (`{"deleted": true}` for a deletion).
    public var lost: String
    /// The item's text as the edit had it, to name the item in the history.
    public var text: String
    /// Who sent it: the app's `User-Agent`, else the face's name.
    public var sentBy: String
    /// When the server refused it (ISO 8601).
    public var at: String

    /// A lost edit of `itemId` with the values in `lost`.
    public init(id: String = UUID().uuidString, itemId: String, fields: [String], lost: JSONObject, text: String, sentBy: String, at: Date) {
        self.id = id
        self.itemId = itemId
        self.fields = fields
        self.lost = JSONWriter.string(.object(lost))
        self.text = text
        self.sentBy = sentBy
        self.at = SyncDateFormat.string(from: at)
    }

    /// The row's columns as the table stores them.
    public var columns: JSONObject {
        ["id": .string(id), "itemId": .string(itemId), "fields": .string(fields.joined(separator: " ")), "lost": .string(lost),
         "text": .string(text), "sentBy": .string(sentBy), "at": .string(at)]
    }

    /// Reads a row; nil when one of its columns is missing or malformed.
    public init?(columns row: JSONObject) {
        guard let id = row["id"]?.stringValue, let itemId = row["itemId"]?.stringValue, let lost = row["lost"]?.stringValue,
              case .object = try? JSONValue.parse(Data(lost.utf8)), let at = row["at"]?.stringValue else { return nil }
        self.id = id
        self.itemId = itemId
        fields = (row["fields"]?.stringValue ?? "").split(separator: " ").map(String.init)
        self.lost = lost
        text = row["text"]?.stringValue ?? ""
        sentBy = row["sentBy"]?.stringValue ?? ""
        self.at = at
    }

    /// The values the edit changed, by item column.
    public var lostValues: JSONObject {
        if case .object(let values) = try? JSONValue.parse(Data(lost.utf8)) { return values }
        return JSONObject()
    }

    /// True when the edit was a deletion (`lost` is `{"deleted": true}`).
    public var isDeletion: Bool { lostValues[SystemProperty.deleted.rawValue] == .bool(true) }

    /// Why it is in the history, in a few words.
    public var reason: String {
        let named = fields.joined(separator: ", ")
        if isDeletion { return "\(sentBy)'s deletion came from an older version" + (named.isEmpty ? "" : ": changed since: " + named) }
        return "\(sentBy)'s edit came from an older version" + (named.isEmpty ? "" : ": both sides changed " + named)
    }
}
