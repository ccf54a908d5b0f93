import OfflineSync

/// What the share dialog and the lists' sharing column ask of the outside.
public struct SharingClient: Sendable {
    /// The shared lists with owners, roles and members, now and after every change to the lists.
    public var observeSharing: @Sendable () -> AsyncThrowingStream<[ListEntry], any Error>
    /// Who shares a list (by id), from the server.
    public var members: @Sendable (String) async throws -> [SpaceMember]
    /// Shares a list (by id) with an account in a role; answers the list's id (new when first shared).
    public var share: @Sendable (String, String, SpaceRole) async throws -> String
    /// Stops sharing a list (by id) with an account; the person's own name leaves it.
    public var unshare: @Sendable (String, String) async throws -> Void

    /// A client of these closures.
    public init(observeSharing: @escaping @Sendable () -> AsyncThrowingStream<[ListEntry], any Error>,
                members: @escaping @Sendable (String) async throws -> [SpaceMember],
                share: @escaping @Sendable (String, String, SpaceRole) async throws -> String,
                unshare: @escaping @Sendable (String, String) async throws -> Void) {
        self.observeSharing = observeSharing
        self.members = members
        self.share = share
        self.unshare = unshare
    }
}
