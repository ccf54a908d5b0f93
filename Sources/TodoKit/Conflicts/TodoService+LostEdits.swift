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

extension TodoService {
    /// Pulls the edits the server kept for items of these spaces (`LostEdit`: a CalDAV app's
    /// stale edit it refused) and adds each to the conflict history once, where its values can
    /// be restored onto the item.
    func pullLostEdits(spaces: [String?]) async throws {
        let lostEdits = context.table(LostEdit.tableName)
        for space in spaces {
            do {
                try await lostEdits.inSpace(space).pull(queryId: "allTodoLostEdits")
            } catch let error as SyncError where error.statusCode == 404 {
                // A server with a fixed schema and no such table keeps none.
            }
        }
        // Every row every time: there are few, and the log skips an origin it recorded before.
        let rows = try lostEdits.read(lostEdits.query).items
        try context.recordConflicts(rows.compactMap { row in
            guard let edit = LostEdit(columns: row) else { return nil }
            let space = row[SharedSpace.column]?.stringValue
            return ("\(LostEdit.tableName)/\(space ?? "")/\(edit.id)", entry(for: edit, space: space))
        })
    }

    /// The conflict log's entry for a lost edit: what the app sent (the item as stored, with the
    /// edit's values), what the server has, and the edit's values as what lost.
    private func entry(for edit: LostEdit, space: String?) -> ConflictLogEntry {
        let stored = try? context.table(TodoItem.tableName).read(id: edit.itemId, space: space)
        var sent = stored ?? ["id": .string(edit.itemId), "text": .string(edit.text)]
        for (field, value) in edit.lostValues { sent[field] = value }
        return ConflictLogEntry(table: TodoItem.tableName, itemId: edit.itemId, space: space, kind: edit.isDeletion ? .deletedLocally : .edit,
                                resolution: .refusedOnServer,
                                at: SyncDateFormat.date(from: edit.at) ?? Date(), fields: edit.fields, base: nil, local: sent,
                                server: stored, lost: edit.lostValues, reason: edit.reason)
    }
}
