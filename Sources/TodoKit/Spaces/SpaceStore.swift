import Foundation
import OfflineSync
import TableProtocol
import TodoModel

/// The shared spaces this account is in, as every capability reads them: which lists are shared
/// and how, where a list's items live, who may change them, and moving rows between spaces.
public struct SpaceStore: StoreFacet {
    let store: TodoStore

    /// The shared lists (with owners, roles and members) as a live query: now, after every
    /// commit to the lists, and after every sync that changed a role, an owner or a member count.
    public func observe() -> AsyncThrowingStream<[ListEntry], any Error> {
        let commits = listTable.untyped.observe(reading: { () })
        let directory = store.spaceDirectory.changes()
        // Either kind of change asks for one read, in one loop, so an older read never follows a newer one.
        let (reads, ask) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        return AsyncThrowingStream { continuation in
            let watching = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        do {
                            for try await _ in commits { ask.yield() }
                            continuation.finish()
                        } catch {
                            continuation.finish(throwing: error)
                        }
                        ask.finish()
                    }
                    group.addTask { for await _ in directory { ask.yield() } }
                    group.addTask { [self] in
                        for await _ in reads {
                            do { continuation.yield(try listEntries().filter(\.isShared)) } catch { continuation.finish(throwing: error) }
                        }
                    }
                }
            }
            continuation.onTermination = { _ in watching.cancel() }
        }
    }

    /// An item moved to a list in another namespace (shared, or back to one's own): a new item
    /// there with the edits, the old one deleted, in one transaction and one undo step. Its
    /// `subtasks` (at every depth, parents first) move with it, each a new item under its
    /// parent's new id.
    func moveToSpace(_ item: TodoItem, from stored: TodoItem, subtasks: [TodoItem] = []) throws -> TodoItem {
        var newIds = [stored.id: UUID().uuidString]
        for subtask in subtasks { newIds[subtask.id] = UUID().uuidString }
        func moved(_ item: TodoItem, from old: TodoItem) -> TodoItem {
            var moved = item
            if moved.repeatRule != nil, moved.series == nil { moved.series = old.id }  // its next instances keep their ids
            moved.id = newIds[old.id]!
            moved.parentId = moved.parentId.map { newIds[$0] ?? $0 }
            return moved
        }
        return try table.untyped.inSpace(try space(ofList: item.listId)).transaction { writes in
            func remove(_ old: TodoItem) throws {
                try writes.delete([SystemProperty.id.rawValue: .string(old.id), SharedSpace.column: old.space.map(JSONValue.string) ?? .null])
            }
            try remove(stored)
            let parent = moved(item, from: stored)
            let inserted = TodoItem(try writes.insert(parent.object)) ?? parent
            for subtask in subtasks {
                var step = subtask
                step.listId = item.listId
                try remove(subtask)
                _ = try writes.insert(moved(step, from: subtask).object)
            }
            return inserted
        }
    }

    /// Every list with its owner and the person's role, in list order.
    public func listEntries() throws -> [ListEntry] {
        let me = store.account.signedInUser
        let directory = store.spaceDirectory.load()
        let records = try listTable.read(listTable.query.order(by: "position").order(by: "name")).records
        var entries = records.map { synced -> ListEntry in
            guard let space = synced.space else {
                return ListEntry(list: synced.record, space: nil, owner: me, role: .owner, members: 1, displayName: synced.record.name)
            }
            let info = directory[space]
            return ListEntry(list: synced.record, space: space, owner: info?.owners.first, role: info?.role, members: info?.members ?? 1,
                             displayName: synced.record.name)
        }
        let counts = Dictionary(entries.map { ($0.list.name.lowercased(), 1) }, uniquingKeysWith: +)
        for index in entries.indices where counts[entries[index].list.name.lowercased(), default: 0] > 1 && entries[index].isShared {
            entries[index].displayName += " (\(entries[index].owner ?? "shared"))"
            if let owner = entries[index].owner { entries[index].commandName += "@" + owner }
        }
        return entries
    }

    /// The list a person names: `NAME` (their own first when names clash) or `NAME@OWNER`.
    public func listEntry(named name: String) throws -> ListEntry? {
        let entries = try listEntries()
        let key = name.lowercased()
        let exact = entries.filter { $0.list.name.lowercased() == key }
        if let own = exact.first(where: { !$0.isShared }) ?? exact.first { return own }
        guard let at = name.lastIndex(of: "@") else { return nil }
        let (listName, owner) = (name[..<at].lowercased(), name[name.index(after: at)...].lowercased())
        return entries.first { $0.list.name.lowercased() == listName && $0.owner?.lowercased() == owner }
    }

    /// The spaces of the signed-in account, as the server says now; spaces this device holds
    /// that are not among them (left, removed, deleted) are dropped, their unsent changes going
    /// to the conflict history. Answers their ids; none on a server without spaces or accounts.
    @discardableResult
    func refreshSpaces() async throws -> [String] {
        guard let client = context.client, store.account.signedInUser != nil, try await client.capabilities().sharedSpaces else { return [] }
        // What this device holds, read before asking: a space made meanwhile (a share on its
        // way) is then listed by the server, or not yet held here, and never dropped.
        let held = try context.localSpaces()
        let before = store.spaceDirectory.load()
        var spaces = try await client.spaces()
        // A list whose last other member left, seen shared before, comes back to its owner.
        let deserted = spaces.filter { $0.role == .owner && $0.members == 1 && (before[$0.id]?.members ?? 1) > 1 && held.contains($0.id) }
        if !deserted.isEmpty {
            for space in deserted { try await dissolve(space.id, client: client) }
            spaces = try await client.spaces()
        }
        try store.spaceDirectory.save(spaces)
        let listed = Set(spaces.map(\.id))
        for gone in held.subtracting(listed) {
            if before[gone]?.role == .owner {
                // The account's own list, shared with nobody any more: another of its devices moved
                // the rows back home (ids kept) before the space went, so this device's copies and
                // their unsent changes follow (#41).
                try await context.returnSpace(gone)
            } else {
                try await context.dropSpace(gone, reason: "The list is no longer shared with you (you left or were removed, or it was deleted)")
            }
        }
        return spaces.map(\.id).sorted()
    }

    /// The space items of this list are written to (nil: the account's own namespace, also for
    /// the Inbox and for a list that is gone).
    func space(ofList listId: String?) throws -> String? {
        guard let listId else { return nil }
        return try listTable.read(id: listId)?.space
    }

    /// Refuses a write to a list the person may only read: one read of the list's row (every
    /// save asks), its space's role from the directory kept in memory.
    /// `space`: where the item is, and so its list (ids are unique per namespace).
    func requireWritable(listId: String?, space: String? = nil) throws {
        guard let listId, let list = try listTable.inSpace(space).read(id: listId), let space = list.space,
              store.spaceDirectory.load()[space]?.role == .viewer else { return }
        throw SyncError(.invalidAction, "“\(list.name)” is shared with you read-only (viewer); its owner can make you an editor")
    }

    /// Moves a list and its items between namespaces, on the server (one transaction, ids and
    /// versions kept) and then here: every item of the list this device holds follows, so a
    /// change still queued for one is sent where it now lives.
    func moveList(_ listId: String, from space: String?, to target: String?, client: SyncClient) async throws {
        let moved = try await client.moveRows([
            RowSelection(table: listTable.untyped.name, where: Field("id") == .string(listId)),
            RowSelection(table: table.untyped.name, where: Field("listId") == .string(listId)),
        ], from: space, to: target)
        // A row whose id the destination held (a collaborator's item with one of the owner's
        // ids) moved with a new id: its copy here goes, the row comes back under the new id with
        // the next pull, and the conflict history says why.
        let reason = "the list it was in moved where another item already had its id, so it was given a new one"
        let (lists, items) = (moved[listTable.untyped.name.lowercased()] ?? MovedRowIds(), moved[table.untyped.name.lowercased()] ?? MovedRowIds())
        try await context.followRenamedRows(in: listTable.untyped.name, renamed: lists.renamed, from: space, reason: reason)
        try await context.followRenamedRows(in: table.untyped.name, renamed: items.renamed, from: space, reason: reason)
        if lists.renamed[listId] == nil {
            try await context.moveRows(in: listTable.untyped.name, ids: [listId], from: space, to: target)
        }
        let here = Field(SharedSpace.column) == (space.map(QueryValue.string) ?? nil)
        let held = try table.untyped.read(table.query.filter(Field("listId") == .string(listId) && here)).items
            .compactMap { $0[SystemProperty.id]?.stringValue }
        let following = Set(held).union(items.ids).subtracting(items.renamed.keys)
        try await context.moveRows(in: table.untyped.name, ids: following.sorted(), from: space, to: target)
    }

    /// Items this device added to a list while another device shared it went to the account's
    /// own namespace, where the list's other members never see them: they follow the list into
    /// its space (ids kept), as the share would have taken them.
    func adoptStrayItems() async throws {
        guard let client = context.client else { return }
        let shared = try listTable.untyped.read(listTable.query.filter(Field(SharedSpace.column) != nil)).items
        for list in shared {
            guard let listId = list[SystemProperty.id]?.stringValue, let space = list[SharedSpace.column]?.stringValue,
                  store.spaceDirectory.load()[space]?.role != .viewer else { continue }
            let strays = try table.untyped.read(table.query.filter(Field("listId") == .string(listId) && Field(SharedSpace.column) == nil)).items
                .compactMap { $0[SystemProperty.id]?.stringValue }
            guard !strays.isEmpty else { continue }
            // Sent first, so the server's move takes them along.
            try await context.push()
            _ = try await client.moveRows([RowSelection(table: table.untyped.name, where: Field("listId") == .string(listId))], from: nil, to: space)
            try await context.moveRows(in: table.untyped.name, ids: strays, from: nil, to: space)
        }
    }

    /// A list shared with nobody any more becomes one of the owner's own again: its rows move
    /// back (ids kept) and the space goes.
    func dissolve(_ space: String, client: SyncClient) async throws {
        // What this device changed in the list reaches the server first, so the move takes it
        // along (a change sent to the space once it is gone would be refused).
        try await context.push()
        let lists = try listTable.untyped.read(listTable.query.filter(Field(SharedSpace.column) == .string(space))).items
        for list in lists {
            guard let id = list[SystemProperty.id]?.stringValue else { continue }
            try await moveList(id, from: space, to: nil, client: client)
        }
        do {
            try await client.deleteSpace(space)
        } catch let error as SyncError where error.code == .spaceNotFound {
            // Another device of the owner dissolved it first.
        }
    }
}

extension TodoStore {
    /// The shared spaces this account is in.
    public var spaces: SpaceStore { SpaceStore(store: self) }
}
