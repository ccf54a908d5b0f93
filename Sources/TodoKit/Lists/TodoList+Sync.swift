import OfflineSync
import TodoModel

/// A list is a typed record of OfflineSync, read and written through `context.table(TodoList.self)`.
extension TodoList: SyncRecord {
    /// The table's definition for the local store.
    public static let definition = SyncTableDefinition(
        name: tableName, columns: ["name": .text, "position": .number], mergePolicy: .fieldMerge, humanSorted: ["name"])
}
