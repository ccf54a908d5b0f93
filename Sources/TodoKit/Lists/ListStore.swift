import OfflineSync
import TableProtocol
import TodoModel

/// The lists: their rows in the `TodoList` table, found by name without letter case.
public struct ListStore: StoreFacet {
    let store: TodoStore

    /// The lists as a live query.
    public func observe() -> AsyncThrowingStream<[TodoList], any Error> {
        mapLatest(listTable.observe(listTable.query.order(by: "position").order(by: "name"))) { $0.map(\.record) }
    }

    /// Every list, in order (position, then name).
    public func all() throws -> [TodoList] {
        try listTable.read(listTable.query.order(by: "position").order(by: "name")).records.map(\.record)
    }

    /// The list of this name (letter case aside), if any.
    public func named(_ name: String) throws -> TodoList? {
        let key = name.lowercased()
        return try all().first { $0.name.lowercased() == key }
    }

    /// The list of this name, added at the end when missing.
    @discardableResult
    public func ensure(named name: String) async throws -> TodoList {
        let name = try Self.checkedListName(name)
        if let list = try named(name) { return list }
        let last = try all().map(\.position).max() ?? 0
        return try await listTable.insert(TodoList(name: name, position: last + 1)).record
    }

    /// Adds a list; an error when one of that name exists.
    @discardableResult
    public func add(named name: String) async throws -> TodoList {
        if try named(try Self.checkedListName(name)) != nil { throw SyncError(.invalidParameter, "A list named “\(name)” exists already") }
        return try await ensure(named: name)
    }

    /// Renames a list.
    public func rename(_ old: String, to new: String) async throws {
        guard var list = try named(old) else { throw SyncError(.invalidParameter, "No list named “\(old)”") }
        try store.spaces.requireWritable(listId: list.id)
        let new = try Self.checkedListName(new)
        if let other = try named(new), other.id != list.id { throw SyncError(.invalidParameter, "A list named “\(new)” exists already") }
        list.name = new
        try await listTable.update(list)
    }

    /// Deletes a list: its items move to the Inbox, or (`withItems`) are deleted with it (one
    /// undo step for the items). Answers how many items moved or went.
    @discardableResult
    public func remove(named name: String, withItems: Bool) async throws -> Int {
        guard let list = try named(name) else { throw SyncError(.invalidParameter, "No list named “\(name)”") }
        try store.spaces.requireWritable(listId: list.id)
        if try store.spaces.space(ofList: list.id) != nil, !withItems {
            // A shared list's items leave its space for the person's own Inbox (the others see them go).
            let items = try table.read(table.query.filter(Field("listId") == .string(list.id))).records
            for stored in items {
                var item = stored.record
                item.listId = nil
                _ = try store.spaces.moveToSpace(item, from: TodoItem(stored))
            }
            try await listTable.delete(list)
            return items.count
        }
        let count = try table.untyped.transaction { writes in
            let rows = try writes.read(table.query.filter(Field("listId") == .string(list.id))).items
            for row in rows {
                // Each row by its key: its id and its space.
                let key = JSONObject(row.filter { $0.key == SystemProperty.id.rawValue || $0.key == SharedSpace.column }.map { ($0.key, $0.value) })
                if withItems {
                    try writes.delete(key)
                } else {
                    var cleared = key
                    cleared["listId"] = .null
                    try writes.update(cleared)
                }
            }
            return rows.count
        }
        try await listTable.delete(list)
        return count
    }

    /// The ids of the lists of these names (by the name as given), the missing ones added at the
    /// end in one transaction and one undo step. Every name is checked first, so a bad one adds
    /// none (an import used to make the lists before the one it refused). Lists are read once:
    /// reading every list for each new one made an import of many lists crawl.
    func ensureAll(named names: [String]) throws -> [String: String] {
        var seen = Set<String>()
        let given = names.filter { seen.insert($0).inserted }  // in the file's order, each once
        let checked = try given.map(Self.checkedListName)
        let existing = try all()
        var byName = Dictionary(existing.map { ($0.name.lowercased(), $0.id) }, uniquingKeysWith: { first, _ in first })
        var position = existing.map(\.position).max() ?? 0
        var added: [TodoList] = []
        for name in checked where byName[name.lowercased()] == nil {
            position += 1
            let list = TodoList(name: name, position: position)
            byName[name.lowercased()] = list.id
            added.append(list)
        }
        try listTable.insert(contentsOf: added)
        return Dictionary(uniqueKeysWithValues: zip(given, checked.map { byName[$0.lowercased()]! }))
    }

    /// The list an item shows in: its own, or the Inbox (nil) when it has none or its list is gone.
    public func shownList(of item: TodoItem, among lists: [TodoList]) -> TodoList? {
        item.listId.flatMap { id in lists.first { $0.id == id } }
    }

    /// A list name: trimmed, not empty, one line without control characters (a tab or a line
    /// break in it broke the lines `todo lists` prints), not the Inbox's.
    static func checkedListName(_ name: String) throws -> String {
        do {
            return try TodoList.checkedName(name)
        } catch {
            throw SyncError(.invalidParameter, error.message)
        }
    }
}

extension TodoStore {
    /// The lists.
    public var lists: ListStore { ListStore(store: self) }
}
