import OfflineSync
import TableProtocol
import TodoModel

extension ListingStore {
    /// The listing in outline order (`Subtasks`): each subtask right after its parent, one level
    /// deeper. A subtask whose parent the listing leaves out (done, in another list, deleted) is
    /// at the top, in its own place. The listing's outline and its subtasks are read first (they
    /// are held in memory), then the listing streams a chunk at a time as `forEachChunk`, so a
    /// listing without subtasks costs one empty query more.
    public func forEachOutlineChunk(of listing: ItemListing, today: DueDate, _ body: ([(listed: ListedItem, depth: Int)]) throws -> Void) throws {
        let query = listing.query(table.query, today: today, lists: try store.spaces.listEntries().map(\.list))
        let before = context.settledWrites
        let parents = try context.readConsistently { try outline(of: query, before: before) }.parents
        guard !parents.isEmpty else {
            try forEachChunk(of: listing, today: today) { chunk in try body(chunk.map { (listed: $0, depth: 0) }) }
            return
        }
        var children: [String: [ListedItem]] = [:]
        try forEachChunk(of: listing, today: today, where: ListingOutline.hasParent) { chunk in
            for subtask in chunk { if let parent = parents[subtask.item.id] { children[parent, default: []].append(subtask) } }
        }
        try forEachChunk(of: listing, today: today) { chunk in
            var outlined: [(listed: ListedItem, depth: Int)] = []
            func add(_ listed: ListedItem, depth: Int) {
                outlined.append((listed, depth))
                for child in children[listed.item.id] ?? [] { add(child, depth: depth + 1) }
            }
            for listed in chunk where parents[listed.item.id] == nil { add(listed, depth: 0) }
            try body(outlined)
        }
    }

}
