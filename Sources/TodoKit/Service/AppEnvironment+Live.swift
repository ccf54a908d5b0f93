import Foundation
import OfflineSync

extension AppEnvironment {
    /// The real outside: the service's store, server and live sync, and the continuous clock.
    public static func live(_ service: TodoService, clock: any Clock<Duration> = ContinuousClock()) -> AppEnvironment {
        AppEnvironment(
            observeWindow: { service.observeWindow($0) },
            observeCount: { service.observeCount($0) },
            observeLists: { service.observeLists() },
            observeScopeCounts: { service.observeCounts(of: $0, context: $1) },
            item: { try service.item(id: $0) },
            status: { service.status() },
            pendingCount: { service.pendingCount },
            observeConflictLog: { service.observeConflicts() },
            add: { try await service.add($0) },
            save: { try await service.save($0, openedAs: $1) },
            saveOver: { try await service.save($0) },
            setComplete: { try await service.setComplete(id: $0, space: $1, to: $2) },
            delete: { try await service.delete($0) },
            undo: { try service.undo() },
            redo: { try service.redo() },
            restoreConflict: { try service.restoreConflict(id: $0) },
            sync: { try await service.sync() },
            signIn: { try await service.signIn(user: $0, password: $1) },
            live: { liveEvents(service) },
            pullProgress: {
                let (progress, continuation) = AsyncStream.makeStream(of: PullProgress.self)
                service.reportPullProgress { continuation.yield($0) }
                continuation.onTermination = { _ in service.reportPullProgress(to: nil) }
                return progress
            },
            conflictQuestions: { conflictQuestions(service) },
            observeSharing: { service.observeSharing() },
            members: { try await service.members(ofList: $0) },
            share: { try await service.share(list: $0, with: $1, role: $2).list.id },
            unshare: { try await service.unshare(list: $0, with: $1) },
            clock: clock)
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

    /// The service asks its conflicts through the stream while it is consumed; afterwards (or when
    /// nobody listens) a push gets Cancel, so it never waits for a dialog that cannot come.
    private static func conflictQuestions(_ service: TodoService) -> AsyncStream<ConflictQuestion> {
        let (questions, continuation) = AsyncStream.makeStream(of: ConflictQuestion.self)
        service.setConflictPolicy(.ask { prompt in
            await withCheckedContinuation { reply in
                if case .terminated = continuation.yield(ConflictQuestion(prompt: prompt, reply: reply)) {
                    reply.resume(returning: ConflictAnswer(.cancel))
                }
            }
        })
        continuation.onTermination = { _ in service.setConflictPolicy(.always(.cancel)) }
        return questions
    }
}
