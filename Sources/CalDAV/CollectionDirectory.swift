import SyncServer
import TableProtocol
import TodoModel

/// The collections of one account's home: its lists, the Inbox, and the lists of the shared
/// spaces it is a member of. Membership is read on every request, as the table API reads it, so
/// a removed member loses the shared list at once.
struct CollectionDirectory: Sendable {
    let tables: TableService
    let spaces: SpaceStore
    /// The account's id ("" for anonymous access with `--auth off`).
    let account: String

    /// Every collection: the Inbox, the account's lists, then each space's.
    func all() async throws -> [TaskCollection] {
        var collections = [inbox]
        for row in try await lists(in: account) {
            guard let id = row["id"]?.stringValue else { continue }
            collections.append(TaskCollection(segment: id, namespace: account, listId: id, role: nil, list: row))
        }
        guard !account.isEmpty else { return collections }
        for space in try await spaces.spaces(of: account) {
            for row in try await lists(in: space.id) {
                guard let id = row["id"]?.stringValue else { continue }
                collections.append(TaskCollection(segment: space.id + String(TaskCollection.spaceSeparator) + id, namespace: space.id,
                                                  listId: id, role: space.role, list: row))
            }
        }
        return collections
    }

    /// The collection at `segment`; nil when the account has none there (a list another account
    /// keeps, or a space it is not a member of, answers exactly as a missing one).
    func collection(_ segment: String) async throws -> TaskCollection? {
        if segment == TaskCollection.inboxSegment { return inbox }
        if let separator = segment.firstIndex(of: TaskCollection.spaceSeparator) {
            let space = String(segment[..<separator]), listId = String(segment[segment.index(after: separator)...])
            guard !account.isEmpty, ItemID.validate(listId) == nil, let role = try await spaces.role(of: account, in: space),
                  let row = try await TableRows(tables: tables, table: TodoList.tableName, owner: space).row(id: listId) else { return nil }
            return TaskCollection(segment: segment, namespace: space, listId: listId, role: role, list: row)
        }
        guard ItemID.validate(segment) == nil, let row = try await TableRows(tables: tables, table: TodoList.tableName, owner: account).row(id: segment)
        else { return nil }
        return TaskCollection(segment: segment, namespace: account, listId: segment, role: nil, list: row)
    }

    /// The Inbox: the account's items without a list.
    var inbox: TaskCollection {
        TaskCollection(segment: TaskCollection.inboxSegment, namespace: account, listId: nil, role: nil, list: nil)
    }

    /// The live list rows of a namespace.
    func lists(in namespace: String) async throws -> [JSONObject] {
        try await TableRows(tables: tables, table: TodoList.tableName, owner: namespace).all(filter: nil)
    }
}
