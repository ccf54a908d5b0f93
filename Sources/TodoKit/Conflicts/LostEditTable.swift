import Foundation
import OfflineSync
import TableProtocol
import TodoModel

/// The lost-edit table's definition for the local store: rows the server writes, never this device.
enum LostEditTable {
    static let definition = SyncTableDefinition(
        name: LostEdit.tableName,
        columns: ["itemId": .text, "fields": .text, "lost": .text, "text": .text, "sentBy": .text, "at": .text])
}
