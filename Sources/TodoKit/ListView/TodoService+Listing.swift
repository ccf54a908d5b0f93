import OfflineSync
import TodoModel

/// Reads of any size in bounded memory: `todo list` and `todo export` of a million items hold a
/// chunk of a few hundred at a time, never the whole result.
extension TodoService {
    /// The items of a listing in its order, a chunk at a time, each with the list it shows in and
    /// whether a local change to it waits to be sent.
    public func forEachChunk(of listing: ItemListing, today: DueDate, _ body: ([ListedItem]) throws -> Void) throws {
        let entries = try listEntries()
        let byId = Dictionary(entries.map { ($0.list.id, $0) }, uniquingKeysWith: { first, _ in first })
        let query = listing.query(table.query, today: today, listIds: entries.map(\.list.id))
        try table.forEachChunk(query) { records, pending in
            try body(records.map { synced in
                let item = TodoItem(synced)
                let entry = item.listId.flatMap { byId[$0] }
                return ListedItem(item: item, list: entry?.list, listName: entry?.commandName, isPending: pending.contains(item.id.lowercased()))
            })
        }
    }

    /// Every item with its list's name (nil: the Inbox), in list order, a chunk at a time: what
    /// `todo export` writes.
    public func forEachEntryChunk(_ body: ([TodoFile.Entry]) throws -> Void) throws {
        let names = Dictionary(try lists().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        try table.forEachChunk(table.query.order(by: "text")) { records, _ in
            try body(records.map { synced in
                let item = TodoItem(synced)
                return TodoFile.Entry(item: item, listName: item.listId.flatMap { names[$0] })
            })
        }
    }

    /// Every item with its list's name, in list order, all at once (`forEachEntryChunk` holds a chunk).
    public func allEntries() throws -> [TodoFile.Entry] {
        var entries: [TodoFile.Entry] = []
        try forEachEntryChunk { entries += $0 }
        return entries
    }
}
