extension SharingClient {
    /// The server's spaces, through the service.
    public static func live(_ service: TodoService) -> SharingClient {
        SharingClient(observeSharing: { service.observeSharing() },
                      members: { try await service.members(ofList: $0) },
                      share: { try await service.share(list: $0, with: $1, role: $2).list.id },
                      unshare: { try await service.unshare(list: $0, with: $1) })
    }
}
