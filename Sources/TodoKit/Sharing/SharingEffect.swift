import OfflineSync

/// Sharing's effects, run against `SharingClient`; the share dialog's requests run beside the
/// store's work, and their answers (or why they failed) go to the dialog.
public enum SharingEffect: CapabilityEffect {
    /// Watch which lists are shared, and how (a live query) → `.sharingLoaded`.
    case observeSharing
    /// Read who shares a list → `.sharing(.dialog(.membersLoaded))` or `.failed`.
    case loadMembers(listId: String)
    /// Share a list (making it shared first if need be, under a new id) → `.sharing(.dialog(.shared))` or `.failed`.
    case shareList(listId: String, user: String, role: SpaceRole)
    /// Stop sharing a list with an account (or leave it) → `.sharing(.dialog(.removed))` or `.failed`.
    case unshareList(listId: String, user: String)

    private enum Watch { case sharing }

    @MainActor public func run(in runtime: AppRuntime) {
        let sharing = runtime.environment.sharing
        switch self {
        case .observeSharing: runtime.subscribe(Watch.sharing, to: sharing.observeSharing()) { .sharing(.loaded($0)) }
        case .loadMembers(let listId): Self.request(runtime) { .membersLoaded(try await sharing.members(listId)) }
        case .shareList(let listId, let user, let role):
            Self.request(runtime) { .shared(listId: try await sharing.share(listId, user, role), was: listId, user: user, role: role) }
        case .unshareList(let listId, let user):
            Self.request(runtime) {
                try await sharing.unshare(listId, user)
                return .removed(user)
            }
        }
    }

    @MainActor private static func request(_ runtime: AppRuntime, _ request: @escaping @Sendable () async throws -> ShareDialogViewModel.Message) {
        runtime.beside {
            do {
                return .sharing(.dialog(try await request()))
            } catch {
                return .sharing(.dialog(.failed(SyncError.wrapping(error).message)))
            }
        }
    }
}
