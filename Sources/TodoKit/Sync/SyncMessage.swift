import OfflineSync

/// Syncing's messages: a sync asked for and finished, the queue's state, live sync and pulls.
public enum SyncMessage: CapabilityMessage {
    /// The person asked for a sync (a key, or ↑ on the first row).
    case syncRequested
    /// A sync finished.
    case synced(SyncOutcome)
    /// The queue's state, read from the store.
    case statusLoaded(SyncSnapshot)
    /// Turn live sync on or off.
    case toggleLive
    /// Live sync's state changed.
    case liveChanged(LiveSyncState)
    /// Live sync pushed or pulled by itself.
    case liveSynced(LiveSyncActivity, SyncOutcome)
    /// A pull (manual or live) received another page.
    case pullProgress(PullProgress)

    public func apply(to state: inout AppState) -> [Effect] {
        switch self {
        case .syncRequested: return state.status.update(.syncRequested)
        case .synced(let outcome):
            _ = state.status.update(.synced(outcome))
            let signIn: [Effect] = if case .failed(_, .signedOut) = outcome, state.signIn == nil { [.send(.open(.signIn))] } else { [] }
            return signIn + state.afterWrite()
        case .statusLoaded(let snapshot): return state.status.update(.loaded(snapshot, historyOpen: state.history != nil))
        case .toggleLive: return state.status.update(.toggleLive)
        case .liveChanged(let live): return state.status.update(.liveChanged(live))
        case .liveSynced(let activity, let outcome):
            // A failure is said on the status bar; the sign-in dialog waits for a sync the person asked for.
            _ = state.status.update(.liveSynced(activity, outcome))
            // The item being edited may have changed: say so before the person saves.
            if case .succeeded = outcome, activity == .pulled, let editor = state.editor {
                return state.afterWrite() + [.items(.loadEditedItem(id: editor.original.id))]
            }
            return state.afterWrite()
        case .pullProgress(let progress): return state.status.update(.pullProgress(progress))
        }
    }
}
