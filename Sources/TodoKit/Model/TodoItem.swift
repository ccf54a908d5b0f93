import Foundation
import OfflineSync
import TableProtocol

/// One todo, as the seed app's `TodoItem` table holds it (`id`, `text`, `complete`): a typed
/// record of OfflineSync, read and written through `context.table(TodoItem.self)`.
public struct TodoItem: SyncRecord, Hashable, Identifiable {
    public static let tableName = TodoTable.name

    /// The item's id (a GUID for items made here).
    public var id: String
    /// What to do.
    public var text: String
    /// Done or not.
    public var complete: Bool
    /// The server version the local row is based on, if it was ever synced (read from the
    /// store's system properties; never written: a save keeps the stored version).
    public var version: String?
    /// When the server last changed it, if known (read, never written).
    public var updatedAt: String?

    // Only the app's own columns are encoded; the store keeps the system properties.
    private enum CodingKeys: String, CodingKey { case id, text, complete }

    /// Creates an item.
    public init(id: String = UUID().uuidString, text: String, complete: Bool = false, version: String? = nil, updatedAt: String? = nil) {
        self.id = id
        self.text = text
        self.complete = complete
        self.version = version
        self.updatedAt = updatedAt
    }

    /// A stored record with the system properties the app shows or names.
    public init(_ synced: Synced<TodoItem>) {
        self = synced.record
        version = synced.version
        updatedAt = synced.updatedAtStamp
    }

    /// Reads a row of the `TodoItem` table; nil when it has no id.
    public init?(_ object: JSONObject) {
        guard let id = object[SystemProperty.id]?.stringValue else { return nil }
        self.init(id: id, text: object["text"]?.stringValue ?? "", complete: object["complete"]?.boolValue ?? false,
                  version: object[SystemProperty.version]?.stringValue, updatedAt: object[SystemProperty.updatedAt]?.stringValue)
    }

    /// The item as a row (for the three-way merge and the bulk transaction): the app's columns,
    /// plus the version so pushes send `If-Match`.
    public var object: JSONObject {
        var object: JSONObject = [SystemProperty.id.rawValue: .string(id), "text": .string(text), "complete": .bool(complete)]
        if let version { object[SystemProperty.version] = .string(version) }
        return object
    }

    /// Sort order of the list, as the store sorts it: by text in `HumanOrder` (case and accents
    /// set aside), then id.
    public static func listOrder(_ a: TodoItem, _ b: TodoItem) -> Bool {
        switch HumanOrder.compare(a.text, b.text) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: return a.id.lowercased() < b.id.lowercased()
        }
    }
}

/// The app's table, as the seed app declares it.
public enum TodoTable {
    /// The table's name on the server.
    public static let name = "TodoItem"
    /// Its definition for the local store.
    public static let definition = SyncTableDefinition(
        name: name, columns: ["text": .text, "complete": .boolean],
        indexes: [["complete", "text", SystemProperty.id.rawValue], ["text", SystemProperty.id.rawValue]], searchable: ["text"],
        mergePolicy: .fieldMerge, humanSorted: ["text"])
}
