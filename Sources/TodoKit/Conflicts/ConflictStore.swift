import Foundation
import OfflineSync
import TableProtocol
import TodoModel

/// The conflict history: settled conflicts, restoring what lost, and the server's lost edits.
public struct ConflictStore: StoreFacet {
    let store: TodoStore

    /// Settled conflicts, newest first.
    public func log(limit: Int = ConflictLogEntry.limit) throws -> [ConflictRecord] {
        try context.conflictLog(limit: limit).map(ConflictRecord.init)
    }

    /// The conflict log as a live query; each result marks every conflict in it seen (the person
    /// is looking at the history).
    public func observeLog(limit: Int = ConflictLogEntry.limit) -> AsyncThrowingStream<[ConflictRecord], any Error> {
        mapLatest(context.observeConflictLog(limit: limit)) { [conflictsSeen = store.conflictsSeen] entries in
            if let newest = entries.first { conflictsSeen.save(newest.id) }
            return entries.map(ConflictRecord.init)
        }
    }

    /// Brings back the values that lost in a conflict, as a new local change; answers the item
    /// as it now is (nil when the restore deleted it). A lost edit the server kept is settled for
    /// every device: its row goes with the restore.
    @discardableResult
    public func restore(id: Int64) throws -> TodoItem? {
        try context.restoreConflict(id: id, originRow: Self.lostEditRow).flatMap(TodoItem.init)
    }

    /// Empties the conflict log; the server's lost edits this device took go too, so no device
    /// is offered them again.
    public func clear() throws { try context.clearConflictLog(originRow: Self.lostEditRow) }

    /// The origin of a lost edit's entry: `TodoLostEdit/SPACE/ID` ("" for the account's own).
    static func origin(ofLostEdit id: String, space: String?) -> String { "\(LostEdit.tableName)/\(space ?? "")/\(id)" }

    /// The lost edit's row an entry's origin names; nil for any other origin.
    static func lostEditRow(_ origin: String) -> ConflictOriginRow? {
        let parts = origin.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == LostEdit.tableName, !parts[2].isEmpty else { return nil }
        return ConflictOriginRow(table: LostEdit.tableName, id: String(parts[2]), space: parts[1].isEmpty ? nil : String(parts[1]))
    }

    /// The person has seen every conflict settled so far (the badge goes).
    public func markSeen() {
        if let newest = try? context.conflictLog(limit: 1).first { store.conflictsSeen.save(newest.id) }
    }

    /// Conflicts settled since the person last looked: one COUNT, since this runs after every write.
    func newCount() -> Int {
        (try? context.settledConflictCount(after: store.conflictsSeen.load())) ?? 0
    }

    /// Pulls the edits the server kept for items of these spaces (`LostEdit`: a CalDAV app's
    /// stale edit it refused) and adds each to the conflict history once, where its values can
    /// be restored onto the item; a new device takes only those refused since its first sync
    /// (`LostEditHorizon`).
    func pullLostEdits(spaces: [String?]) async throws {
        let horizon = store.lostEditHorizon.value(now: Date(), syncedBefore: store.lastSyncStore.load() != nil)
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
            guard let edit = LostEdit(columns: row), (SyncDateFormat.date(from: edit.at) ?? .distantFuture) >= horizon else { return nil }
            let space = row[SharedSpace.column]?.stringValue
            return (Self.origin(ofLostEdit: edit.id, space: space), entry(for: edit, space: space))
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

extension TodoStore {
    /// The conflict history.
    public var conflicts: ConflictStore { ConflictStore(store: self) }
}
