import Foundation
import OfflineSync
import TableProtocol
import TodoModel

/// A list as the person sees it: where it lives, whose it is and what they may do there.
public struct ListEntry: Sendable, Equatable {
    public var list: TodoList
    /// The shared space it is in; nil for a list of the person's own.
    public var space: String?
    /// The owner's name: the signed-in person for their own lists (nil when nobody is signed in).
    public var owner: String?
    /// The person's role: `.owner` of their own lists; nil for a shared list not yet listed by
    /// the server (before the first sync that saw it).
    public var role: SpaceRole?
    /// How many people it is shared between (1 for a list of one's own).
    public var members: Int
    /// The name shown: the list's, with the owner added (`Groceries (ann)`) when another list
    /// has the same name.
    public var displayName: String
    /// The name commands print and take (`--list`): the list's, or `NAME@OWNER` for a shared list
    /// whose name another list has too.
    public var commandName: String

    /// A list entry.
    public init(list: TodoList, space: String?, owner: String?, role: SpaceRole?, members: Int, displayName: String) {
        (self.list, self.space, self.owner, self.role, self.members, self.displayName) = (list, space, owner, role, members, displayName)
        commandName = list.name
    }

    /// True when the person may change the list and its items.
    public var isWritable: Bool { role != .viewer }
    /// True for a list in a shared space.
    public var isShared: Bool { space != nil }
}

/// Sharing lists: a shared list is a shared space (OfflineSync) holding the list and its items;
/// the server enforces who may read and write. Sharing needs the server and a signed-in account.
extension TodoService {
    /// Every list with its owner and the person's role, in list order.
    public func listEntries() throws -> [ListEntry] {
        let me = signedInUser
        let directory = spaceDirectory.load()
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

    /// Shares a list with the account named `user` in `role` (editor or viewer), or changes that
    /// account's role. A list of one's own becomes a shared space first: the list and its items
    /// move into it on the server and here, keeping their ids.
    @discardableResult
    public func share(listNamed name: String, with user: String, role: SpaceRole = .editor) async throws -> ListEntry {
        try await share(try entry(named: name), with: user, role: role)
    }

    /// Stops sharing a list with the account named `user` (owners only).
    public func unshare(listNamed name: String, with user: String) async throws {
        try await unshare(try entry(named: name), with: user)
    }

    /// Who a list is shared between, and their roles: only the person, for a list not shared.
    public func members(ofListNamed name: String) async throws -> [SpaceMember] {
        try await members(of: try entry(named: name))
    }

    /// Leaves a list shared with you: it and its items leave this device, and any change not yet
    /// sent goes to the conflict history. Answers how many changes went there.
    @discardableResult
    public func leave(listNamed name: String) async throws -> Int {
        try await leave(try entry(named: name))
    }

    // The same for the list with an id (the share dialog).

    /// `share(listNamed:with:role:)` for the list with this id.
    @discardableResult
    public func share(list id: String, with user: String, role: SpaceRole = .editor) async throws -> ListEntry {
        try await share(try entry(id: id), with: user, role: role)
    }

    /// Stops sharing the list with this id with `user`; the person's own name leaves it.
    public func unshare(list id: String, with user: String) async throws {
        let entry = try entry(id: id)
        if user.lowercased() == signedInUser?.lowercased() {
            try await leave(entry)
        } else {
            try await unshare(entry, with: user)
        }
    }

    /// Who shares the list with this id: its members, or only the person for a list not shared.
    public func members(ofList id: String) async throws -> [SpaceMember] {
        try await members(of: try entry(id: id))
    }

    private func members(of entry: ListEntry) async throws -> [SpaceMember] {
        guard entry.space != nil else { return [SpaceMember(user: signedInUser ?? "you", role: .owner)] }
        return try await sharingClient().members(of: try sharedSpace(of: entry))
    }

    private func share(_ entry: ListEntry, with user: String, role: SpaceRole) async throws -> ListEntry {
        var entry = entry
        let client = try sharingClient()
        if entry.space == nil {
            // What this device changed reaches the server first, so the move takes it along.
            try await sync()
            let space = try await client.createSpace()
            try await moveList(entry.list.id, from: nil, to: space, client: client)
            entry = ListEntry(list: entry.list, space: space, owner: signedInUser, role: .owner, members: 1, displayName: entry.list.name)
        }
        guard let space = entry.space else { throw SyncError(.invalidAction, "The list could not be shared") }
        try await client.setRole(role, of: user, in: space)
        try await refreshSpaces()
        return try listEntries().first { $0.list.id == entry.list.id } ?? entry
    }

    /// With the last other member gone, the list comes back to the owner's own lists (`dissolve`).
    private func unshare(_ entry: ListEntry, with user: String) async throws {
        let client = try sharingClient()
        let space = try sharedSpace(of: entry)
        try await client.removeMember(user, from: space)
        if entry.role == .owner, try await client.members(of: space).count == 1 {
            try await dissolve(space, client: client)
        }
        try await refreshSpaces()
    }

    /// A list shared with nobody any more becomes one of the owner's own again: its rows move
    /// back (ids kept) and the space goes.
    private func dissolve(_ space: String, client: SyncClient) async throws {
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

    private func leave(_ entry: ListEntry) async throws -> Int {
        let client = try sharingClient()
        guard let me = signedInUser else { throw SyncError(.invalidAction, "Sign in first (todo sign-in)") }
        let space = try sharedSpace(of: entry)
        try await client.removeMember(me, from: space)
        let logged = try await context.dropSpace(space, reason: "You left the list “\(entry.displayName)”")
        try await refreshSpaces()
        return logged
    }

    private func entry(named name: String) throws -> ListEntry {
        guard let entry = try listEntry(named: name) else { throw SyncError(.invalidParameter, "No list named “\(name)”") }
        return entry
    }

    private func entry(id: String) throws -> ListEntry {
        guard let entry = try listEntries().first(where: { $0.list.id == id }) else { throw SyncError(.invalidParameter, "The list no longer exists") }
        return entry
    }

    private func sharedSpace(of entry: ListEntry) throws -> String {
        guard let space = entry.space else { throw SyncError(.invalidParameter, "“\(entry.displayName)” is not shared") }
        return space
    }

    /// The spaces of the signed-in account, as the server says now; spaces this device holds
    /// that are not among them (left, removed, deleted) are dropped, their unsent changes going
    /// to the conflict history. Answers their ids; none on a server without spaces or accounts.
    @discardableResult
    func refreshSpaces() async throws -> [String] {
        guard let client = context.client, signedInUser != nil, try await client.capabilities().sharedSpaces else { return [] }
        // What this device holds, read before asking: a space made meanwhile (a share on its
        // way) is then listed by the server, or not yet held here, and never dropped.
        let held = try context.localSpaces()
        let before = spaceDirectory.load()
        var spaces = try await client.spaces()
        // A list whose last other member left, seen shared before, comes back to its owner.
        let deserted = spaces.filter { $0.role == .owner && $0.members == 1 && (before[$0.id]?.members ?? 1) > 1 && held.contains($0.id) }
        if !deserted.isEmpty {
            for space in deserted { try await dissolve(space.id, client: client) }
            spaces = try await client.spaces()
        }
        try spaceDirectory.save(spaces)
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
              spaceDirectory.load()[space]?.role == .viewer else { return }
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
                  spaceDirectory.load()[space]?.role != .viewer else { continue }
            let strays = try table.untyped.read(table.query.filter(Field("listId") == .string(listId) && Field(SharedSpace.column) == nil)).items
                .compactMap { $0[SystemProperty.id]?.stringValue }
            guard !strays.isEmpty else { continue }
            // Sent first, so the server's move takes them along.
            try await context.push()
            _ = try await client.moveRows([RowSelection(table: table.untyped.name, where: Field("listId") == .string(listId))], from: nil, to: space)
            try await context.moveRows(in: table.untyped.name, ids: strays, from: nil, to: space)
        }
    }

    /// The signed-in account's app passwords (for CalDAV apps).
    public func appPasswords() async throws -> [AppPasswordInfo] { try await accountClient("Managing app passwords").appPasswords() }

    /// Makes an app password labelled `label`; answers it (shown once).
    public func addAppPassword(label: String) async throws -> String { try await accountClient("Managing app passwords").addAppPassword(label: label) }

    /// Revokes the app password labelled `label`.
    public func removeAppPassword(label: String) async throws { try await accountClient("Managing app passwords").removeAppPassword(label: label) }

    private func sharingClient() throws -> SyncClient { try accountClient("Sharing") }

    /// The client of a signed-in account; `what` needs one.
    private func accountClient(_ what: String) throws -> SyncClient {
        guard let client = context.client else { throw SyncError(.invalidAction, "\(what) needs a server (this device is local only)") }
        guard signedInUser != nil else { throw SyncError(.invalidAction, "\(what) needs an account: sign in first (todo sign-in)") }
        return client
    }

}
