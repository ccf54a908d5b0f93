import Foundation
import OfflineSync
import TableProtocol

/// One todo, as the seed app's `TodoItem` table holds it (`id`, `text`, `complete`).
public struct TodoItem: Sendable, Hashable, Identifiable {
    /// The item's id (a GUID for items made here).
    public var id: String
    /// What to do.
    public var text: String
    /// Done or not.
    public var complete: Bool
    /// The server version the local row is based on, if it was ever synced.
    public var version: String?
    /// When the server last changed it, if known.
    public var updatedAt: String?

    /// Creates an item.
    public init(id: String = UUID().uuidString, text: String, complete: Bool = false, version: String? = nil, updatedAt: String? = nil) {
        self.id = id
        self.text = text
        self.complete = complete
        self.version = version
        self.updatedAt = updatedAt
    }

    /// Reads a row of the `TodoItem` table; nil when it has no id.
    public init?(_ object: JSONObject) {
        guard let id = object[SystemProperty.id]?.stringValue else { return nil }
        self.init(id: id, text: object["text"]?.stringValue ?? "", complete: object["complete"]?.boolValue ?? false,
                  version: object[SystemProperty.version]?.stringValue, updatedAt: object[SystemProperty.updatedAt]?.stringValue)
    }

    /// The row to store: the app's columns, plus the version so pushes send `If-Match`.
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
