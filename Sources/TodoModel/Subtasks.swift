/// Subtasks: an item may be a step of another (`TodoItem.parentId`). The rules are the model's,
/// so every device, `todo list` and the CalDAV face agree on them.
///
/// A parent link is kept as written and only read through these rules: a subtask whose parent
/// is not to be seen (deleted on another device, in a list this account cannot see, left out
/// by the view) stands at the top level, and is never lost. Two devices that each put one of
/// two items under the other while offline make a cycle; every device breaks it the same way,
/// at the member with the smallest id, which then stands at the top.
public enum Subtasks {
    /// True when putting `item` under `parent` would make the item its own ancestor (`parent` is
    /// the item, or one of its subtasks at any depth). `parentOf` answers an item's parent id
    /// (nil at the top, or for an item not known).
    public static func wouldCycle(_ item: String, under parent: String, parentOf: (String) throws -> String?) rethrows -> Bool {
        var seen: Set<String> = []
        var current: String? = parent
        while let id = current {
            if id == item { return true }
            // A cycle above that does not pass through the item is not the item's to refuse.
            guard seen.insert(id).inserted else { return false }
            current = try parentOf(id)
        }
        return false
    }

    /// The parent each item is shown under: its own where that is among `links` (id → parent
    /// id, one entry per item shown), nil where the parent is not shown, and nil for the member
    /// with the smallest id of each cycle.
    public static func shownParents(_ links: [String: String?]) -> [String: String] {
        // Items as numbers in `links`' own order, so the walks compare integers rather than hash
        // strings: an id is hashed when numbered, named as a parent and answered, where the walks
        // hashed it at every step.
        let ids = Array(links.keys)
        var number: [String: Int] = [:]
        number.reserveCapacity(ids.count)
        for (index, id) in ids.enumerated() { number[id] = index }
        var parent = [Int](repeating: -1, count: ids.count)
        for (index, link) in links.enumerated() {
            if let shown = link.value, shown != link.key, let parentIndex = number[shown] { parent[index] = parentIndex }
        }
        let shown = shownParents(parent, ids: ids)
        var parents: [String: String] = [:]
        parents.reserveCapacity(ids.count)
        for (index, parentIndex) in shown.enumerated() where parentIndex >= 0 { parents[ids[index]] = ids[parentIndex] }
        return parents
    }

    /// The same for numbered items: `parent[i]` is the index in `ids` of item `i`'s parent, or -1
    /// where none is shown. Answers the parents with each cycle broken at its smallest id.
    public static func shownParents(_ parent: [Int], ids: [String]) -> [Int] {
        precondition(parent.count == ids.count && parent.allSatisfy { $0 >= -1 && $0 < ids.count }, "a parent names no item")
        var parent = parent
        // Walk up from every item; a walk that comes back to an item on its own path is a cycle.
        // Each item has one parent, so each cycle is found whole by whichever walk enters it
        // first and broken at its smallest id: the walks' order changes nothing.
        enum Walk: UInt8 { case unvisited, onPath, settled }
        var walk = [Walk](repeating: .unvisited, count: ids.count)
        var path: [Int] = []
        for start in ids.indices where walk[start] == .unvisited {
            path.removeAll(keepingCapacity: true)
            var current = start
            while current >= 0, walk[current] == .unvisited {
                walk[current] = .onPath
                path.append(current)
                current = parent[current]
            }
            if current >= 0, walk[current] == .onPath, let from = path.lastIndex(of: current),
               let smallest = path[from...].min(by: { ids[$0] < ids[$1] }) {
                parent[smallest] = -1
            }
            for item in path { walk[item] = .settled }
        }
        return parent
    }

    /// `items` in outline order: each subtask right after its parent (and the parent's earlier
    /// subtasks), one level deeper, siblings and top-level items in the order given.
    public static func outline<Item>(_ items: [Item], id: (Item) -> String, parent: (Item) -> String?) -> [(item: Item, depth: Int)] {
        var links: [String: String?] = [:]
        for item in items { links[id(item)] = parent(item) }
        let parents = shownParents(links)
        var children: [String: [Item]] = [:]
        var roots: [Item] = []
        for item in items {
            if let parent = parents[id(item)] { children[parent, default: []].append(item) } else { roots.append(item) }
        }
        var ordered: [(item: Item, depth: Int)] = []
        ordered.reserveCapacity(items.count)
        func visit(_ item: Item, depth: Int) {
            ordered.append((item, depth))
            for child in children[id(item)] ?? [] { visit(child, depth: depth + 1) }
        }
        for root in roots { visit(root, depth: 0) }
        return ordered
    }

    /// "2/5": how many of an item's subtasks are done, of how many; nil without subtasks.
    public static func progress(done: Int, of total: Int) -> String? {
        total == 0 ? nil : "\(done)/\(total)"
    }
}
