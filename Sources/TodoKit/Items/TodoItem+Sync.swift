import Foundation
import OfflineSync
import TableProtocol
import TodoModel

/// An item is a typed record of OfflineSync, read and written through `context.table(TodoItem.self)`.
extension TodoItem: SyncRecord {
    /// The item's key on the device (its space and id).
    public var key: ItemKey { ItemKey(space: space, id: id) }

    /// A stored record with the system properties the app shows or names.
    public init(_ synced: Synced<TodoItem>) {
        self = synced.record
        version = synced.version
        updatedAt = synced.updatedAtStamp
        updatedBy = synced.updatedBy
        space = synced.space
    }

    /// Reads a row of the `TodoItem` table; nil when it has no id.
    public init?(_ object: JSONObject) {
        guard let synced = try? Synced<TodoItem>(item: object) else { return nil }
        self.init(synced)
    }

    /// The task order: by due (items without one last), then priority (high first, none last),
    /// then text as `listOrder` sorts it.
    public static func dueOrder(_ a: TodoItem, _ b: TodoItem) -> Bool {
        if a.due != b.due {
            guard let x = a.due else { return false }
            guard let y = b.due else { return true }
            return x < y
        }
        let rank = { (item: TodoItem) in item.priority.map { Priority.allCases.firstIndex(of: $0)! } ?? Priority.allCases.count }
        if rank(a) != rank(b) { return rank(a) < rank(b) }
        return listOrder(a, b)
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
