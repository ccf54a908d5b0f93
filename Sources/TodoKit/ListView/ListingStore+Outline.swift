import OfflineSync
import TableProtocol
import TodoModel

extension ListingStore {
    /// The listing in outline order (`Subtasks`): each subtask right after its parent, one level
    /// deeper. A subtask whose parent the listing leaves out (done, in another list, deleted) is
    /// at the top, in its own place. The listing's subtasks are read first (one query; they are
    /// held in memory), then the listing streams a chunk at a time as `forEachChunk`, so a
    /// listing without subtasks costs one empty query more.
    public func forEachOutlineChunk(of listing: ItemListing, today: DueDate, _ body: ([(listed: ListedItem, depth: Int)]) throws -> Void) throws {
        var subtasks: [ListedItem] = []
        try forEachChunk(of: listing, today: today, where: Field("parentId") != nil) { subtasks += $0 }
        guard !subtasks.isEmpty else {
            try forEachChunk(of: listing, today: today) { chunk in try body(chunk.map { (listed: $0, depth: 0) }) }
            return
        }
        // Which parents the listing shows: the subtasks themselves, and the others read by id.
        var links: [String: String?] = Dictionary(subtasks.map { ($0.item.id, $0.item.parentId) }, uniquingKeysWith: { first, _ in first })
        let others = Set(subtasks.compactMap(\.item.parentId)).subtracting(links.keys).sorted()
        for start in stride(from: 0, to: others.count, by: Self.idsPerQuery) {
            let ids = others[start..<min(start + Self.idsPerQuery, others.count)].map { Field(SystemProperty.id.rawValue) == .string($0) }
            guard let any = QueryPredicate.any(ids) else { continue }
            try forEachChunk(of: listing, today: today, where: any) { chunk in for listed in chunk { links[listed.item.id] = .some(nil) } }
        }
        let parents = Subtasks.shownParents(links)
        var children: [String: [ListedItem]] = [:]
        for subtask in subtasks { if let parent = parents[subtask.item.id] { children[parent, default: []].append(subtask) } }
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

    /// Ids one query names at most.
    static let idsPerQuery = 200
}
