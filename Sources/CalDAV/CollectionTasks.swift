import Foundation
import SyncServer
import TableProtocol
import TodoModel

/// The tasks of one collection, read and written through `TableService` in the collection's
/// namespace: every write is an ordinary write (versioned, stamped, heard live by every open
/// `todo`), and the todo's rules (completion, the next instance of a repeating task) are the
/// shared model's.
struct CollectionTasks: Sendable {
    let collection: TaskCollection
    let tables: TableService

    var rows: TableRows { TableRows(tables: tables, table: TodoItem.tableName, owner: collection.namespace) }

    /// Every live task of the collection.
    func all() async throws -> [TaskRow] {
        try await rows.all(filter: collection.taskFilter).compactMap(TaskRow.init)
    }

    /// The live task at `name` in this collection, or nil.
    func task(named name: String) async throws -> TaskRow? {
        if name.hasSuffix(".ics") {
            let id = String(name.dropLast(4))
            if ItemID.validate(id) == nil, let row = try await rows.row(id: id), let task = TaskRow(row),
               task.name == name, collection.holds(listId: task.item.listId) {
                return task
            }
        }
        // A name the client chose (kept in its own column).
        let filter = "\(TaskRow.nameColumn) eq \(TableRows.literal(name)) and \(collection.taskFilter)"
        return try await rows.page(filter: filter, orderBy: "id", top: 1).first.flatMap(TaskRow.init)
    }

    /// The newest change to the collection's tasks (those that left it included): its list's
    /// group stamp, one read (`CalDAVFace.changeGroups`); nil when it never had a task. A
    /// server that keeps no groups answers the namespace's newest change.
    func latestStamp() async throws -> String? {
        guard tables.keepsGroups(of: TodoItem.tableName) else { return try await namespaceLatestStamp() }
        return try await tables.groupStamp(table: TodoItem.tableName, group: collection.listId, owner: collection.namespace)
    }

    /// The newest `updatedAt` of the namespace's tasks, deleted ones included; nil before the
    /// first. Every token this face issued for the namespace is at or before it.
    func namespaceLatestStamp() async throws -> String? {
        try await rows.page(filter: nil, orderBy: "updatedAt desc", top: 1, deleted: true).first?[SystemProperty.updatedAt.rawValue]?.stringValue
    }

    /// What changed after `token` (RFC 6578): tasks now in the collection, and the names of those
    /// that left it (deleted, or moved to another list) — only after a first sync, since a
    /// client that had nothing lost nothing. At most `limit` entries, and members while `fits`
    /// them; then `truncated` is set and `token` continues where this report stopped, so paging
    /// loses nothing.
    func changes(after token: SyncToken, limit: Int, latest: String?, fits: (TaskRow) -> Bool = { _ in true }) async throws -> SyncChanges {
        var report = SyncChanges(token: token)
        let first = token.stamp == nil
        // Nothing in the collection changed after a whole stamp: no scan.
        if let stamp = token.stamp, token.id == nil, let latest, let at = SyncDateFormat.date(from: stamp),
           let newest = SyncDateFormat.date(from: latest), at >= newest {
            return report
        }
        var cursor = token
        let pageSize = min(tables.maxTop, 500)
        while true {
            let filter = [cursor.filter, first ? collection.taskFilter : nil].compactMap { $0 }.map { "(\($0))" }.joined(separator: " and ")
            let page = try await rows.page(filter: filter.isEmpty ? nil : filter, orderBy: "updatedAt,id", top: pageSize, deleted: !first)
            for row in page {
                guard let task = TaskRow(row) else { continue }
                let member = !task.deleted && collection.holds(listId: task.item.listId)
                if member || !first {
                    // A first member past `fits` is still answered, or its report would never move on.
                    if report.members.count + report.removed.count >= limit || member && !fits(task) && !report.members.isEmpty {
                        report.token = cursor
                        report.truncated = true
                        return report
                    }
                    if member { report.members.append(task) } else { report.removed.append(task.name) }
                }
                cursor = SyncToken(stamp: task.updatedAt, id: task.item.id, scope: collection.tokenScope)
            }
            if page.count < pageSize { break }
        }
        // Every change to the collection up to `latest` (read before the scan) was seen; the token
        // ends there, so it equals the collection's `getctag` until the list changes again (the
        // scan may have passed other lists' later changes, which a next report reads again).
        let stamps = [token.stamp, latest ?? cursor.stamp].compactMap { $0 }
        let newest = stamps.max { (SyncDateFormat.date(from: $0) ?? .distantPast) < (SyncDateFormat.date(from: $1) ?? .distantPast) }
        report.token = SyncToken(stamp: newest, scope: collection.tokenScope)
        return report
    }
}

/// A sync report's content.
struct SyncChanges: Sendable {
    var members: [TaskRow] = []
    /// Names of resources gone from the collection.
    var removed: [String] = []
    var token: SyncToken
    var truncated = false
}
