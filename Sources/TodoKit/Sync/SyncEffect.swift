import Foundation
import OfflineSync

/// Syncing's effects, run against `ServerSyncClient`.
public enum SyncEffect: CapabilityEffect {
    /// Read the queue's state → `.statusLoaded`.
    case loadStatus
    /// Push then pull → `.synced`.
    case pushThenPull
    /// Start (or restart) live sync → `.liveChanged` and `.liveSynced` from then on.
    case startLive
    /// Stop live sync.
    case stopLive
    /// Watch every pull's pages, manual or live → `.pullProgress`.
    case observePullProgress

    private enum Watch { case live, pullProgress }

    @MainActor public func run(in runtime: AppRuntime) {
        let sync = runtime.environment.sync
        switch self {
        case .loadStatus: runtime.store { .sync(.statusLoaded(await sync.status())) }
        case .pushThenPull:
            runtime.afterStoreWork {
                do {
                    try await sync.sync()
                    return .sync(.synced(.succeeded(at: Date())))
                } catch {
                    return .sync(.synced(.failed(error, pending: await sync.pendingCount())))
                }
            }
        case .startLive:
            runtime.subscribe(Watch.live, to: sync.live()) { event in
                switch event {
                case .state(let state): return .sync(.liveChanged(state))
                case .synced(let activity, let outcome): return .sync(.liveSynced(activity, outcome))
                }
            }
        case .stopLive: runtime.unsubscribe(Watch.live)
        case .observePullProgress: runtime.subscribe(Watch.pullProgress, to: sync.pullProgress()) { .sync(.pullProgress($0)) }
        }
    }
}
