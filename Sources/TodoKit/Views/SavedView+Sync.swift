import OfflineSync
import TodoModel

/// A kept view is a typed record of OfflineSync, read and written through `context.table(SavedView.self)`.
extension SavedView: SyncRecord {
    /// The table's definition for the local store.
    public static let definition = SyncTableDefinition(
        name: tableName, columns: ["name": .text, "query": .text], mergePolicy: .fieldMerge, humanSorted: ["name"])
}
