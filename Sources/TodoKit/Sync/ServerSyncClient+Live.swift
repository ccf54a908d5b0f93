import Foundation
import OfflineSync

extension ServerSyncClient {
    /// The store's queue, sync and live sync.
    public static func live(_ store: TodoStore) -> ServerSyncClient {
        ServerSyncClient(
            status: { store.server.status() },
            pendingCount: { store.server.pendingCount },
            sync: { try await store.server.sync() },
            live: { liveEvents(store) },
            pullProgress: {
                let (progress, continuation) = AsyncStream.makeStream(of: PullProgress.self)
                store.reportPullProgress { continuation.yield($0) }
                continuation.onTermination = { _ in store.reportPullProgress(to: nil) }
                return progress
            })
    }

    /// Live sync for as long as the stream is consumed.
    private static func liveEvents(_ store: TodoStore) -> AsyncStream<LiveEvent> {
        let (events, continuation) = AsyncStream.makeStream(of: LiveEvent.self)
        let sync = store.server.makeLiveSync { continuation.yield(.state($0)) } onSync: { activity, error in
            continuation.yield(.synced(activity, error.map { .failed($0, pending: store.server.pendingCount) } ?? .succeeded(at: Date())))
        }
        guard let sync else {
            continuation.finish()
            return events
        }
        continuation.onTermination = { _ in sync.stop() }
        sync.start()
        return events
    }
}
