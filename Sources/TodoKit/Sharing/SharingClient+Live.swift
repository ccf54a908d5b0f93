extension SharingClient {
    /// The server's spaces, through the store.
    public static func live(_ store: TodoStore) -> SharingClient {
        SharingClient(observeSharing: { store.spaces.observe() },
                      members: { try await store.sharing.members(ofList: $0) },
                      share: { try await store.sharing.share(list: $0, with: $1, role: $2).list.id },
                      unshare: { try await store.sharing.unshare(list: $0, with: $1) })
    }
}
