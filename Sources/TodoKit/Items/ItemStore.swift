import Foundation
import OfflineSync
import TableProtocol
import TodoModel

/// Reading and writing items: adds, saves (with the completion rules), deletes, bulk work and imports.
public struct ItemStore: StoreFacet {
    let store: TodoStore

    /// Adds an item.
    @discardableResult
    public func add(_ text: String) async throws -> TodoItem { try await add(TodoItem(text: text)) }

    /// Adds a whole item (queued as an insert), in the space of its list when that list is shared.
    @discardableResult
    public func add(_ item: TodoItem) async throws -> TodoItem {
        try Self.requireText(item)
        try store.spaces.requireWritable(listId: item.listId)
        return TodoItem(try await table.inSpace(try store.spaces.space(ofList: item.listId)).insert(item))
    }

    /// Saves an edited item (over the stored version, whatever the copy's `version` says), with
    /// the completion rules every path shares (the list's Space, the editor, `E`, `todo edit`):
    /// completing stamps `completedAt`, reopening clears it, and completing a repeating item also
    /// adds its next instance in the same transaction (so one undo takes both back), with an id
    /// derived from the series and the due date: two devices completing the same instance
    /// offline add the same item, and after both sync there is one.
    @discardableResult
    public func save(_ item: TodoItem, now: Date = Date()) async throws -> TodoItem {
        try Self.requireText(item)
        // The row the copy was read from: its space's, when two namespaces hold its id.
        let stored = try table.inSpace(item.space).read(id: item.id)
        try store.spaces.requireWritable(listId: stored?.listId, space: stored?.space)
        if item.listId != stored?.listId { try store.spaces.requireWritable(listId: item.listId) }
        var edited = item
        edited.parentId = try parentToSave(item, over: stored?.parentId)
        let completion = CompletionRules.writes(saving: edited, wasComplete: stored?.complete ?? item.complete, now: now)
        let item = completion.saved
        // Moved to a list in another namespace (shared, or back to one's own): a new item there.
        if let stored, item.listId != stored.listId, try store.spaces.space(ofList: item.listId) != stored.space {
            let steps = try subtasks(of: stored.id, space: stored.space).filter { $0.listId == stored.listId }
            return try store.spaces.moveToSpace(item, from: TodoItem(stored), subtasks: steps)
        }
        let (subtasks, nextInstances) = try subtaskChanges(saving: item, over: stored.map(TodoItem.init), now: now)
        guard completion.nextIfAbsent != nil || !subtasks.isEmpty else {
            return TodoItem(try await table.inSpace(stored?.space ?? item.space).update(item))
        }
        let row = try item.item()  // without the copy's version: the stored one stays
        // One transaction, one undo step: the item, its next instance (where the item is: a
        // shared list's space, or one's own), and its subtasks with theirs.
        try table.untyped.inSpace(stored?.space).transaction { writes in
            try writes.update(row)
            for next in [completion.nextIfAbsent].compactMap({ $0 }) + nextInstances { try Self.insert(next, ifAbsentIn: writes, space: stored?.space) }
            for subtask in subtasks { try writes.update(try subtask.item()) }
        }
        return item
    }

    /// Adds a completion's next instance unless a row of the space holds its id already.
    static func insert(_ next: TodoItem, ifAbsentIn writes: SyncTableTransaction, space: String?) throws {
        if try writes.read(id: next.id, space: space) == nil { try writes.insert(next.object, inSpace: space) }
    }

    /// Sets one item's completion, on its current stored version (the caller's copy may be
    /// older: the list shows rows until their reload arrives, and a save of that copy would undo
    /// newer edits). Unknown ids are an error; an item already in that state is left alone.
    /// The completion rules are `save`'s.
    /// `space` names the row when two namespaces hold the id (nil: the account's own first).
    @discardableResult
    public func setComplete(id: String, space: String? = nil, to complete: Bool, now: Date = Date()) async throws -> TodoItem {
        guard var item = try table.inSpace(space).read(id: id).map(TodoItem.init) else {
            throw SyncError(.invalidParameter, "The item no longer exists")
        }
        guard item.complete != complete else { return item }
        item.complete = complete
        return try await save(item, now: now)
    }

    /// Deletes an item (the row of its space, when two namespaces hold its id) and its subtasks,
    /// in one transaction and one undo step.
    public func delete(_ item: TodoItem) async throws {
        let row = table.inSpace(item.space)
        let stored = try row.read(id: item.id)
        try store.spaces.requireWritable(listId: stored?.listId, space: stored?.space)
        let steps = try subtasks(of: item.id, space: stored?.space ?? item.space)
        guard !steps.isEmpty else { return try await row.delete(id: item.id) }
        try table.untyped.inSpace(stored?.space ?? item.space).transaction { writes in
            for step in steps.reversed() { try writes.delete(step.object) }
            try writes.delete([SystemProperty.id.rawValue: .string(item.id)])
        }
    }

    /// Refuses a parent that is not stored here, or is the item itself or one of its subtasks:
    /// an item is never its own ancestor. Answers the parent, whose id as stored is the one to
    /// save: ids match in any letters here, but a subtask names its parent in the parent's own.
    @discardableResult
    public func requireParent(_ parentId: String, of item: TodoItem) throws -> TodoItem {
        guard let parent = try self.item(sharingSpaceWith: item, id: parentId) else { throw SyncError(.invalidParameter, "No item has the id “\(parentId)” to be the parent.") }
        guard parent.id != item.id else { throw SyncError(.invalidAction, "An item cannot be a step of itself.") }
        if try Subtasks.wouldCycle(item.id, under: parent.id, parentOf: { try self.item(sharingSpaceWith: item, id: $0)?.parentId }) {
            throw SyncError(.invalidAction, "“\(parent.text)” is a step of “\(item.text)”: it cannot also be its parent (an item cannot be its own ancestor).")
        }
        return parent
    }

    /// The parent id to save for an edited `item` whose stored copy names `previous`: a new one
    /// is checked (`requireParent`) and saved as the parent's own id is stored.
    func parentToSave(_ item: TodoItem, over previous: String?) throws -> String? {
        guard let parent = item.parentId, parent != previous else { return item.parentId }
        return try requireParent(parent, of: item).id
    }

    /// The item with this id, in `other`'s space when two hold the id (a subtask and its parent
    /// share a list), else the first.
    private func item(sharingSpaceWith other: TodoItem, id: String) throws -> TodoItem? {
        let found = try items(id: id)
        return found.first { $0.space == other.space } ?? found.first
    }

    /// What saving `item` over `stored` does to its subtasks: moved to another list, the ones
    /// still in the old list go with it; completed, the open ones are completed too (with their
    /// next instances). Reopening it reopens none.
    func subtaskChanges(saving item: TodoItem, over stored: TodoItem?, now: Date) throws -> (changed: [TodoItem], nextInstances: [TodoItem]) {
        guard let stored else { return ([], []) }
        var changed: [String: TodoItem] = [:]
        var order: [String] = []
        func change(_ subtask: TodoItem) {
            if changed[subtask.id] == nil { order.append(subtask.id) }
            changed[subtask.id] = subtask
        }
        if item.listId != stored.listId {
            for var subtask in try subtasks(of: item.id, space: stored.space) where subtask.listId == stored.listId {
                subtask.listId = item.listId
                change(subtask)
            }
        }
        var nextInstances: [TodoItem] = []
        if item.complete && !stored.complete {
            for open in try openSubtasks(of: item.id, space: stored.space) {
                let done = CompletionRules.writes(saving: (changed[open.id] ?? open).completed, wasComplete: false, now: now)
                change(done.saved)
                if let next = done.nextIfAbsent { nextInstances.append(next) }
            }
        }
        return (order.compactMap { changed[$0] }, nextInstances)
    }

    /// The item's subtasks at every depth, in its space (each level's in item order), nearest first.
    public func subtasks(of id: String, space: String?) throws -> [TodoItem] {
        try descendants(of: id, space: space, openOnly: false)
    }

    /// The item's subtasks at every depth that are not done: what completing it completes.
    public func openSubtasks(of id: String, space: String?) throws -> [TodoItem] {
        try descendants(of: id, space: space, openOnly: true)
    }

    /// One query per level; a cycle (two devices' moves crossing) ends the walk.
    private func descendants(of id: String, space: String?, openOnly: Bool) throws -> [TodoItem] {
        var found: [TodoItem] = []
        var seen: Set<String> = [id]
        var level = [id]
        let rows = table.inSpace(space)
        while !level.isEmpty {
            var next: [String] = []
            for parents in QueryPredicate.oneOf("parentId", chunking: level) {
                var query = rows.query.filter(parents)
                if openOnly { query = query.filter(Field("complete") == false) }
                for child in try rows.read(query.order(by: "text")).records.map(TodoItem.init) where child.space == space && seen.insert(child.id).inserted {
                    found.append(child)
                    next.append(child.id)
                }
            }
            level = next
        }
        return found
    }

    /// Every item, completed ones too, in list order.
    public func allItems() throws -> [TodoItem] {
        try table.read(store.listing.listQuery(filterText: "", showCompleted: true, showHeldBack: true).order(by: "text")).records.map(TodoItem.init)
    }

    /// Adds the items whose ids the store does not have yet (so importing a file twice adds
    /// nothing); calls `progress(done, total)` every 500 items. Answers how many were added and
    /// how many were there already.
    public func importItems(_ items: [TodoItem], progress: (Int, Int) -> Void = { _, _ in }) throws -> (added: Int, present: Int) {
        let entries = Dictionary(try store.spaces.listEntries().map { ($0.list.id, $0) }, uniquingKeysWith: { $1 })
        if let readOnly = items.lazy.compactMap({ $0.listId.flatMap { entries[$0] } }).first(where: { !$0.isWritable }) {
            throw SyncError(.invalidAction, "“\(readOnly.displayName)” is shared with you read-only (viewer); nothing was imported")
        }
        return try table.untyped.transaction { writes in
            var added = 0
            // A chunk at a time (for progress), each run of items of one space one bulk insert;
            // an id already here, or earlier in the file, is left out.
            for start in stride(from: 0, to: items.count, by: Self.progressEvery) {
                let chunk = items[start..<min(start + Self.progressEvery, items.count)]
                for run in chunk.runs(by: { $0.listId.flatMap { entries[$0]?.space } }) {
                    added += try writes.insert(contentsOf: run.elements.map(\.object), inSpace: run.key, skippingStored: true).count
                }
                progress(start + chunk.count, items.count)
            }
            return (added, items.count - added)
        }
    }

    /// Marks every item whose text contains `match` (every item without one) complete or not;
    /// answers how many changed.
    /// The completion rules are `save`'s: `completedAt`, and a repeating item's next instance.
    public func setCompleteAll(matching match: String?, to complete: Bool, now: Date = Date(),
                               progress: (Int, Int) -> Void = { _, _ in }) throws -> Int {
        let context = ScopeContext(today: DueDate(day: now), lists: try store.lists.all())  // so `--match +List` finds the list
        let readOnly = try store.spaces.listEntries().filter { !$0.isWritable }.map(\.list.id)
        let stamp = CompletionRules.completedAt(complete: complete, wasComplete: !complete, stamped: nil, now: now).map(JSONValue.string) ?? .null
        return try table.untyped.transaction { writes in
            // Items of lists shared read-only are left as they are.
            var query = store.listing.listQuery(filterText: match ?? "", showCompleted: true, showHeldBack: true, context: context).filter(Field("complete") == .bool(!complete))
            if let writable = QueryPredicate.all(readOnly.map { Field("listId") == nil || Field("listId") != .string($0) }) {
                query = query.filter(writable)
            }
            let rows = try writes.read(query).items
            for (index, row) in rows.enumerated() {
                guard let id = row[SystemProperty.id]?.stringValue else { continue }
                let space = row[SharedSpace.column] ?? .null  // the row's key is its id and its space
                try writes.update([SystemProperty.id.rawValue: .string(id), SharedSpace.column: space, "complete": .bool(complete), "completedAt": stamp])
                // Only a repeating row is decoded: marking 10,000 done stays a column write each.
                if complete, (row["repeat"] ?? .null) != .null, let open = TodoItem(row),
                   let next = CompletionRules.writes(saving: open.completed, wasComplete: false, now: now).nextIfAbsent {
                    try Self.insert(next, ifAbsentIn: writes, space: space.stringValue)
                }
                if (index + 1) % Self.progressEvery == 0 { progress(index + 1, rows.count) }
            }
            return rows.count
        }
    }

    /// An item has something to read: not only spaces and line breaks (`todo add --raw $'\\n'`
    /// added one). Every way of adding and saving comes here.
    static func requireText(_ item: TodoItem) throws {
        guard !item.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw SyncError(.invalidParameter, "An item needs some text")
        }
    }

    /// How often bulk work reports progress.
    static let progressEvery = 500

    /// The item with this id (the account's own first, when two namespaces hold the id).
    public func item(id: String) throws -> TodoItem? { try table.read(id: id).map(TodoItem.init) }

    /// The item with this id in `space` (nil: the account's own namespace).
    public func item(id: String, space: String?) throws -> TodoItem? { try table.read(id: id, space: space).map(TodoItem.init) }

    /// Every item with this id: one per namespace holding it (two shared lists may hold one id).
    public func items(id: String) throws -> [TodoItem] { try table.rows(id: id).map(TodoItem.init) }

    /// Up to `limit` items whose id starts with `prefix`, in any letter case (a short id typed
    /// for a long one), read by the store rather than from every item.
    public func items(idPrefix prefix: String, limit: Int) throws -> [TodoItem] {
        let query = table.query.filter(Field(SystemProperty.id.rawValue).lowercased().startsWith(.string(prefix.lowercased()))).limit(limit)
        return try table.read(query).records.map(TodoItem.init)
    }

    /// Adds the item a quick-add line describes; its `+List` is made when missing.
    @discardableResult
    public func add(_ quick: QuickAdd) async throws -> TodoItem {
        var item = quick.item
        if let name = quick.listName { item.listId = try await store.lists.ensure(named: name).id }
        return try await add(item)
    }

    /// Imports entries: their lists first (added when missing), then the items, as `importItems`.
    public func importEntries(_ entries: [TodoFile.Entry], progress: (Int, Int) -> Void = { _, _ in }) async throws -> (added: Int, present: Int) {
        let ids = try store.lists.ensureAll(named: entries.compactMap(\.listName))
        return try importItems(entries.map { entry in
            var item = entry.item
            item.listId = entry.listName.flatMap { ids[$0] }
            return item
        }, progress: progress)
    }
}

extension TodoStore {
    /// Reading and writing items.
    public var items: ItemStore { ItemStore(store: self) }
}
