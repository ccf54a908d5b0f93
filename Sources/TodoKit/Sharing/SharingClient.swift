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

extension SharingClient: CapabilityClient {
    /// Where nothing is shared: no list is shared, and sharing one is refused.
    public static let unavailable = SharingClient(
        observeSharing: { AsyncThrowingStream { $0.yield([]) } },
        members: { _ in throw SharingClient.refusal },
        share: { _, _, _ in throw SharingClient.refusal },
        unshare: { _, _ in throw SharingClient.refusal })

    /// What a client without sharing answers.
    public static let refusal = SyncError(.invalidAction, "Sharing is not available here")
}

extension AppEnvironment {
    /// Sharing lists.
    public var sharing: SharingClient {
        get { self[SharingClient.self] }
        set { self[SharingClient.self] = newValue }
    }
}
