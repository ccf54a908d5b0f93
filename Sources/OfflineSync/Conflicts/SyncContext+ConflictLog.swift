import Foundation
import TableProtocol

/// The conflict log: every settled conflict, and bringing back the values that lost.
extension SyncContext {
    /// Settled conflicts, newest first.
    public func conflictLog(limit: Int = ConflictLogEntry.limit) throws -> [ConflictLogEntry] {
        try guarded { try dataSource.read { try $0.conflicts(limit: limit) } }
    }

    /// The conflict log as a live query: the newest entries now, then again after every change
    /// to the log (a push that settles a conflict, a restore, a clear). Ends when the consuming
    /// task is cancelled.
    public func observeConflictLog(limit: Int = ConflictLogEntry.limit) -> AsyncThrowingStream<[ConflictLogEntry], any Error> {
        observe(tables: [SystemTables.conflictLog]) { try self.conflictLog(limit: limit) }
    }

    /// One entry of the log.
    public func conflictLogEntry(id: Int64) throws -> ConflictLogEntry? {
        try guarded { try dataSource.read { try $0.conflict(id: id) } }
    }

    /// How many conflicts after the entry `id` were settled (cancelled pushes left out).
    public func settledConflictCount(after id: Int64) throws -> Int {
        try guarded { try dataSource.read { try $0.settledConflictCount(after: id) } }
    }

    /// Adds conflicts settled elsewhere to the log (`.refusedOnServer`: a server face refused
    /// another app's write and kept what it sent), each once: an `origin` recorded before is
    /// skipped, even when its entry was cleared or trimmed since. Returns how many were added.
    @discardableResult
    public func recordConflicts(_ entries: [(origin: String, entry: ConflictLogEntry)]) throws -> Int {
        guard !entries.isEmpty else { return 0 }
        return try guarded {
            try dataSource.write { session in
                try entries.reduce(0) { count, recorded in try session.addConflict(recorded.entry, origin: recorded.origin) == nil ? count : count + 1 }
            }
        }
    }

    /// The origin an entry was recorded with (`recordConflicts`), nil for an entry the sync
    /// itself settled.
    public func conflictOrigin(id: Int64) throws -> String? {
        try guarded { try dataSource.read { try $0.conflictOrigin(id: id) } }
    }

    /// Empties the conflict log. `originRow` names the synced row an origin came from, if any
    /// (an entry the server kept as a row for every device): each such row held here is deleted
    /// in the same write, its deletion queued, so no device is offered it again.
    public func clearConflictLog(originRow: (String) -> ConflictOriginRow? = { _ in nil }) throws {
        try guarded {
            try localWrite { session in
                for origin in try session.conflictOrigins() {
                    if let row = originRow(origin) { try deleteOriginRow(row, in: session) }
                }
                try session.removeConflicts()
            }
        }
    }

    private func deleteOriginRow(_ row: ConflictOriginRow, in session: any SyncStoreSession) throws {
        guard let stored = try session.item(in: row.table, id: row.id, space: row.space) else { return }
        try table(row.table).delete(stored, id: row.id, space: row.space, in: session)
    }

    /// Applies the values that lost in a conflict as a new local change, queued like any edit
    /// (the collapse rules apply): lost field values are written onto the item (re-creating it
    /// when it is gone), a lost deletion deletes it again. Answers the item as it now is.
    /// `originRow` as for `clearConflictLog`: the row the entry came from is deleted with the restore.
    @discardableResult
    public func restoreConflict(id: Int64, originRow: (String) -> ConflictOriginRow? = { _ in nil }) throws -> JSONObject? {
        try guarded {
            try localWrite { session in
                guard let entry = try session.conflict(id: id) else {
                    throw SyncError(.invalidParameter, "There is no conflict \(id) in the log")
                }
                guard !entry.lost.isEmpty else {
                    throw SyncError(.invalidAction, "Conflict \(id) lost no value: nothing to restore")
                }
                let table = self.table(entry.table)
                let current = try session.item(in: entry.table, id: entry.itemId, space: entry.space)
                var result: JSONObject?
                if entry.lostADeletion {
                    if let current { try table.delete(current, id: entry.itemId, space: entry.space, in: session) }
                } else if current != nil {
                    result = try table.update(entry.lost, id: entry.itemId, space: entry.space, in: session)
                } else {
                    var item = ConflictSettlement.userValues(entry.local ?? entry.server ?? JSONObject())
                    for (key, value) in entry.lost { item[key] = value }
                    item[SystemProperty.id] = .string(entry.itemId)
                    // Back where it was; a change that could not be sent to its space comes back as your own.
                    let space = entry.resolution == .notSent ? nil : entry.space
                    result = try table.insert(item, id: entry.itemId, space: space, in: session)
                }
                try session.markConflictRestored(id: id, at: Date())
                if let origin = try session.conflictOrigin(id: id), let row = originRow(origin) { try deleteOriginRow(row, in: session) }
                return result
            }
        }
    }

    private func guarded<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw SyncError.wrap(error) }
    }
}

/// A row of a synced table that a recorded conflict came from (`SyncContext.recordConflicts`'
/// origin): the server kept something for every device, and settling it here settles it there.
public struct ConflictOriginRow: Sendable, Equatable {
    /// The table.
    public var table: String
    /// The row's id.
    public var id: String
    /// Its space; nil for the account's own namespace.
    public var space: String?

    /// A row.
    public init(table: String, id: String, space: String?) {
        (self.table, self.id, self.space) = (table, id, space)
    }
}
