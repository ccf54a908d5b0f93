import SyncServer
import TableProtocol
import TodoModel

/// The collections of one account's home: its lists, the Inbox, and the lists of the shared
/// spaces it is a member of, each at the segment `CalendarSegments` gives it (the list's id,
/// wherever the list lives). Membership is read on every request, as the table API reads it, so
/// a removed member loses the shared list at once.
struct CollectionDirectory: Sendable {
    let tables: TableService
    let spaces: SpaceStore
    /// The account's id ("" for anonymous access with `--auth off`).
    let account: String

    /// A list the home sees, before it has its segment.
    private struct Seen {
        let namespace: String
        let role: SpaceRole?
        let row: JSONObject
        let id: String
    }

    /// Every collection: the Inbox, the account's lists, then each space's (oldest membership first).
    func all() async throws -> [TaskCollection] {
        var seen: [Seen] = []
        for row in try await lists(in: account) {
            if let id = row["id"]?.stringValue { seen.append(Seen(namespace: account, role: nil, row: row, id: id)) }
        }
        if !account.isEmpty {
            for space in try await spaces.spaces(of: account) {
                for row in try await lists(in: space.id) {
                    if let id = row["id"]?.stringValue { seen.append(Seen(namespace: space.id, role: space.role, row: row, id: id)) }
                }
            }
        }
        var byId: [String: [Int]] = [:]
        for (index, list) in seen.enumerated() { byId[list.id, default: []].append(index) }
        var segments = [String](repeating: "", count: seen.count)
        for (id, indices) in byId {
            let given = try await assign(id: id, indices.map { seen[$0] })
            for (index, segment) in zip(indices, given) { segments[index] = segment }
        }
        return [inbox] + zip(seen, segments).map { list, segment in
            TaskCollection(segment: segment, namespace: list.namespace, listId: list.id, role: list.role, list: list.row)
        }
    }

    /// The collection at `segment`; nil when the account has none there (a list another account
    /// keeps, or a space it is not a member of, answers exactly as a missing one).
    func collection(_ segment: String) async throws -> TaskCollection? {
        if segment == TaskCollection.inboxSegment { return inbox }
        if ItemID.validate(segment) == nil, let found = try await collection(segment, id: segment) { return found }
        if let alias = CalendarSegments.alias(segment), ItemID.validate(alias.id) == nil, let found = try await collection(segment, id: alias.id) {
            return found
        }
        return try await formerSharedCollection(segment)
    }

    /// The list of id `id` whose segment in this home is `segment`.
    private func collection(_ segment: String, id: String) async throws -> TaskCollection? {
        // The account's own list comes first in the home's order: without a segment of its own
        // kept, it is at its id whatever the spaces hold, and they need not be read.
        let own = try await TableRows(tables: tables, table: TodoList.tableName, owner: account).row(id: id)
        if let own, segment == id, CalendarSegments.stored(in: own)[StableTag.of(account)] == nil {
            return TaskCollection(segment: segment, namespace: account, listId: id, role: nil, list: own)
        }
        let seen = try await lists(withId: id, own: own)
        guard !seen.isEmpty else { return nil }
        let given = try await assign(id: id, seen)
        guard let index = given.firstIndex(of: segment) else { return nil }
        let list = seen[index]
        return TaskCollection(segment: segment, namespace: list.namespace, listId: id, role: list.role, list: list.row)
    }

    /// `SPACE~LIST`, where shared lists were before they kept their id's URL: still answered (a
    /// phone's queued edit to it lands), never listed.
    private func formerSharedCollection(_ segment: String) async throws -> TaskCollection? {
        guard !account.isEmpty, let separator = segment.firstIndex(of: TaskCollection.spaceSeparator) else { return nil }
        let space = String(segment[..<separator]), listId = String(segment[segment.index(after: separator)...])
        guard space.hasPrefix(SpaceStore.idPrefix), ItemID.validate(listId) == nil, let role = try await spaces.role(of: account, in: space),
              let row = try await TableRows(tables: tables, table: TodoList.tableName, owner: space).row(id: listId) else { return nil }
        return TaskCollection(segment: segment, namespace: space, listId: listId, role: role, list: row)
    }

    /// The lists of id `id` the home sees, in the home's order (`own`: the account's, read already).
    private func lists(withId id: String, own: JSONObject?) async throws -> [Seen] {
        var seen: [Seen] = []
        if let own { seen.append(Seen(namespace: account, role: nil, row: own, id: id)) }
        guard !account.isEmpty else { return seen }
        for space in try await spaces.spaces(of: account) {
            if let row = try await TableRows(tables: tables, table: TodoList.tableName, owner: space.id).row(id: id) {
                seen.append(Seen(namespace: space.id, role: space.role, row: row, id: id))
            }
        }
        return seen
    }

    /// Segments for lists of one id, keeping a new `ID~N` on its list's row.
    private func assign(id: String, _ seen: [Seen]) async throws -> [String] {
        try await CalendarSegments(account: account).assign(id: id, seen.map(\.row)) { index, value in
            _ = try await tables.update(table: TodoList.tableName, id: id, body: [CalendarSegments.column: .string(value)], ifMatch: nil,
                                        owner: seen[index].namespace)
        }
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
