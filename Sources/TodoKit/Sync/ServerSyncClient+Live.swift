import Foundation
import OfflineSync

extension ServerSyncClient {
    /// The service's queue, sync and live sync.
    public static func live(_ service: TodoService) -> ServerSyncClient {
        ServerSyncClient(
            status: { service.status() },
            pendingCount: { service.pendingCount },
            sync: { try await service.sync() },
            live: { liveEvents(service) },
            pullProgress: {
                let (progress, continuation) = AsyncStream.makeStream(of: PullProgress.self)
                service.reportPullProgress { continuation.yield($0) }
                continuation.onTermination = { _ in service.reportPullProgress(to: nil) }
                return progress
            })
    }

    /// Live sync for as long as the stream is consumed.
    private static func liveEvents(_ service: TodoService) -> AsyncStream<LiveEvent> {
        let (events, continuation) = AsyncStream.makeStream(of: LiveEvent.self)
        let sync = service.makeLiveSync { continuation.yield(.state($0)) } onSync: { activity, error in
            continuation.yield(.synced(activity, error.map { .failed($0, pending: service.pendingCount) } ?? .succeeded(at: Date())))
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
