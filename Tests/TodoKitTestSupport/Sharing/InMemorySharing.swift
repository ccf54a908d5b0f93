import OfflineSync
import TodoKit

extension InMemoryEnvironment {
    /// Sharing as the server's spaces and the sharing service answer it.
    public var sharingClient: SharingClient {
        SharingClient(
            observeSharing: { [self] in observe { _ in self.sharing() } },
            members: { [self] listId in
                try state.withLock { state in
                    if state.offline { throw SyncError(.pushAbortedNetwork, "The server could not be reached") }
                    return state.shares[listId] ?? []
                }
            },
            share: { [self] listId, user, role in try share(listId, with: user, as: role) },
            unshare: { [self] listId, user in try unshare(listId, from: user) })
    }

    /// The person's name on the server.
    static func me(_ state: State) -> String { state.signedIn ?? "me" }

    /// Every list, each with who shares it.
    func sharing() -> [ListEntry] {
        state.withLock { state in
            state.lists.map { list in
                let members = state.shares[list.id] ?? []
                return ListEntry(list: list, space: members.isEmpty ? nil : "space-" + list.id, owner: Self.me(state), role: .owner,
                                 members: max(1, members.count), displayName: list.name)
            }
        }
    }

    /// Shares a list: a first share makes the person its owner; an account the server does not
    /// know is refused as the server refuses it. The list keeps its id.
    func share(_ listId: String, with user: String, as role: SpaceRole) throws -> String {
        var refusal: SyncError?
        commit { state in
            if state.offline { return refusal = SyncError(.pushAbortedNetwork, "The server could not be reached") }
            guard state.lists.contains(where: { $0.id == listId }) else { return refusal = SyncError(.invalidParameter, "No list has the id \(listId)") }
            guard state.accounts.isEmpty || state.accounts[user] != nil else { return refusal = SyncError(.invalidParameter, "There is no account named '\(user)'") }
            var members = state.shares[listId] ?? [SpaceMember(user: Self.me(state), role: .owner)]
            members.removeAll { $0.user == user }
            members.append(SpaceMember(user: user, role: role))
            state.shares[listId] = members
        }
        if let refusal { throw refusal }
        return listId
    }

    /// Stops sharing a list with someone; with its last other member gone, the list is the
    /// person's own again.
    func unshare(_ listId: String, from user: String) throws {
        var refusal: SyncError?
        commit { state in
            if state.offline { return refusal = SyncError(.pushAbortedNetwork, "The server could not be reached") }
            guard var members = state.shares[listId], members.contains(where: { $0.user == user }) else {
                return refusal = SyncError(.invalidParameter, "\(user) does not share this list")
            }
            members.removeAll { $0.user == user }
            state.shares[listId] = members.count > 1 ? members : nil
        }
        if let refusal { throw refusal }
    }
}
