import Foundation
import OfflineSync
import TableProtocol
import TodoModel

/// Sharing lists: a shared list is a shared space (OfflineSync) holding the list and its items;
/// the server enforces who may read and write. Sharing needs the server and a signed-in account.
public struct SharingStore: StoreFacet {
    let store: TodoStore

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

    /// `share(listNamed:with:role:)` for the list with this id.
    @discardableResult
    public func share(list id: String, with user: String, role: SpaceRole = .editor) async throws -> ListEntry {
        try await share(try entry(id: id), with: user, role: role)
    }

    /// Stops sharing the list with this id with `user`; the person's own name leaves it.
    public func unshare(list id: String, with user: String) async throws {
        let entry = try entry(id: id)
        if user.lowercased() == store.account.signedInUser?.lowercased() {
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
        guard entry.space != nil else { return [SpaceMember(user: store.account.signedInUser ?? "you", role: .owner)] }
        return try await sharingClient().members(of: try sharedSpace(of: entry))
    }

    private func share(_ entry: ListEntry, with user: String, role: SpaceRole) async throws -> ListEntry {
        var entry = entry
        let client = try sharingClient()
        if entry.space == nil {
            // What this device changed reaches the server first, so the move takes it along.
            try await store.server.sync()
            let space = try await client.createSpace()
            try await store.spaces.moveList(entry.list.id, from: nil, to: space, client: client)
            entry = ListEntry(list: entry.list, space: space, owner: store.account.signedInUser, role: .owner, members: 1, displayName: entry.list.name)
        }
        guard let space = entry.space else { throw SyncError(.invalidAction, "The list could not be shared") }
        try await client.setRole(role, of: user, in: space)
        try await store.spaces.refreshSpaces()
        return try store.spaces.listEntries().first { $0.list.id == entry.list.id } ?? entry
    }

    /// With the last other member gone, the list comes back to the owner's own lists (`dissolve`).
    private func unshare(_ entry: ListEntry, with user: String) async throws {
        let client = try sharingClient()
        let space = try sharedSpace(of: entry)
        try await client.removeMember(user, from: space)
        if entry.role == .owner, try await client.members(of: space).count == 1 {
            try await store.spaces.dissolve(space, client: client)
        }
        try await store.spaces.refreshSpaces()
    }

    private func leave(_ entry: ListEntry) async throws -> Int {
        let client = try sharingClient()
        guard let me = store.account.signedInUser else { throw SyncError(.invalidAction, "Sign in first (todo sign-in)") }
        let space = try sharedSpace(of: entry)
        try await client.removeMember(me, from: space)
        let logged = try await context.dropSpace(space, reason: "You left the list “\(entry.displayName)”")
        try await store.spaces.refreshSpaces()
        return logged
    }

    private func entry(named name: String) throws -> ListEntry {
        guard let entry = try store.spaces.listEntry(named: name) else { throw SyncError(.invalidParameter, "No list named “\(name)”") }
        return entry
    }

    private func entry(id: String) throws -> ListEntry {
        guard let entry = try store.spaces.listEntries().first(where: { $0.list.id == id }) else { throw SyncError(.invalidParameter, "The list no longer exists") }
        return entry
    }

    private func sharedSpace(of entry: ListEntry) throws -> String {
        guard let space = entry.space else { throw SyncError(.invalidParameter, "“\(entry.displayName)” is not shared") }
        return space
    }

    private func sharingClient() throws -> SyncClient { try store.account.accountClient("Sharing") }
}

extension TodoStore {
    /// Sharing lists.
    public var sharing: SharingStore { SharingStore(store: self) }
}
