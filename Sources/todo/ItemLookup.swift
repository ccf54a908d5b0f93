import ArgumentParser
import TodoKit
import TodoModel

/// Finds the item a command names by id or unique id prefix. Two namespaces may hold one id (two
/// shared lists, or a shared list and one's own): when the id names more than one item, the
/// lookup says which lists hold it and asks for `--list NAME`, never picking one silently.
struct ItemLookup {
    let service: TodoStore

    init(_ service: TodoStore) { self.service = service }

    /// The `--list` option's help where it picks the item.
    static let listHelp: ArgumentHelp = "The list the item is in (NAME or NAME@OWNER), when its id is in more than one list."

    /// The item with this id or prefix. `inList` keeps only items in that list (the Inbox: in no
    /// list); not `strict`, it is used only to tell apart items sharing one id (`todo edit
    /// --list` also moves the item). An empty id is refused: as a prefix it would match every
    /// item (`todo rm "$ID"` with `ID` unset deleted the only item there was).
    func find(_ id: String, inList name: String? = nil, strict: Bool = true) throws -> TodoItem {
        guard !id.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw ValidationError("An item id cannot be empty.") }
        let entries = try service.spaces.listEntries()
        var matches = try service.items.items(id: id)
        if matches.isEmpty { matches = try service.items.items(idPrefix: id, limit: Self.prefixMatches) }
        if let name, strict || Set(matches.map(\.id)).count == 1 && matches.count > 1 {
            let list = try Self.list(named: name, in: service)
            let within = matches.filter { $0.listId == list?.list.id && $0.space == list?.space }
            guard !within.isEmpty || matches.isEmpty else {
                throw CommandFailure(description: "No item with the id '\(id)' is in the list “\(name)”; it is in \(Self.names(matches, entries)).")
            }
            matches = within
        }
        guard let first = matches.first else { throw CommandFailure(description: "No item has the id '\(id)'.") }
        if matches.count == 1 { return first }
        guard Set(matches.map { $0.id.lowercased() }).count == 1 else {
            throw CommandFailure(description: "The id '\(id)' matches more than one item; give more of it.")
        }
        throw CommandFailure(description: "The id '\(first.id)' names an item in each of \(Self.names(matches, entries)); "
            + "say which with --list NAME.")
    }

    /// Items a prefix lookup reads: enough to tell one id held twice from two ids.
    static let prefixMatches = 16

    /// The list of this name; nil for the Inbox.
    private static func list(named name: String, in service: TodoStore) throws -> ListEntry? {
        if name.lowercased() == TodoList.inboxName.lowercased() { return nil }
        guard let entry = try service.spaces.listEntry(named: name) else { throw CommandFailure(description: "No list is named “\(name)”.") }
        return entry
    }

    /// The lists holding these items, as `--list` takes them (NAME@OWNER for a shared list).
    private static func names(_ items: [TodoItem], _ entries: [ListEntry]) -> String {
        items.map { item in
            guard let entry = entries.first(where: { $0.list.id == item.listId && $0.space == item.space }) else { return TodoList.inboxName }
            return entry.owner.map { entry.isShared ? "\(entry.list.name)@\($0)" : entry.list.name } ?? entry.list.name
        }.map { "“\($0)”" }.joined(separator: " and ")
    }
}
