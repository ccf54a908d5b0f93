import Foundation
import SyncServer
import TableProtocol
import TodoModel

/// How long the server keeps a refused edit (`LostEdit`) for the devices that have not synced it
/// yet. Every device that syncs within that time takes it into its conflict history (which keeps
/// it as long as the person wants); one restored or cleared on a device is deleted at once, from
/// there (`ConflictStore`). Pruned when a namespace keeps a new one, a bounded batch at a time, so
/// a namespace holds what the last `days` refused and no write pays for a long backlog.
struct LostEditRetention: Sendable {
    let tables: TableService
    let namespace: String

    /// Days a lost edit is kept.
    static let days = 30
    /// The most rows one prune deletes.
    static let batch = 50

    /// Deletes the namespace's lost edits kept longer than `days`, oldest first, at most `batch`.
    func prune(now: Date) async throws {
        let cutoff = SyncDateFormat.string(from: now.addingTimeInterval(-Double(Self.days) * 86_400))
        let rows = TableRows(tables: tables, table: LostEdit.tableName, owner: namespace)
        for row in try await rows.page(filter: "createdAt lt \(TableRows.stamp(cutoff))", orderBy: "createdAt", top: Self.batch) {
            guard let id = row["id"]?.stringValue else { continue }
            _ = try await tables.delete(table: LostEdit.tableName, id: id, ifMatch: nil, owner: namespace)
        }
    }
}
