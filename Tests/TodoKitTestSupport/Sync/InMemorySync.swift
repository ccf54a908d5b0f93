import Foundation
import OfflineSync
import TodoKit

extension InMemoryEnvironment {
    /// The queue's state, a sync that pushes to and pulls from the memory's server, and the live
    /// events and pull progress a test sends.
    public var syncClient: ServerSyncClient {
        ServerSyncClient(
            status: { [self] in
                state.withLock { SyncSnapshot(pending: $0.pending.count, pendingItems: Set($0.pending.map { ItemKey(space: nil, id: $0) }), lastSync: $0.lastSync) }
            },
            pendingCount: { [self] in state.withLock { $0.pending.count } },
            sync: { [self] in try await sync() },
            live: { [self] in
                let (events, continuation) = AsyncStream.makeStream(of: LiveEvent.self)
                state.withLock { $0.live = continuation; $0.liveStarts += 1 }
                return events
            },
            pullProgress: { [self] in
                let (progress, continuation) = AsyncStream.makeStream(of: PullProgress.self)
                state.withLock { $0.progress = continuation }
                return progress
            })
    }

    /// Push (asking each scripted conflict first), then pull everything.
    func sync() async throws {
        let (offline, signedOut) = state.withLock { state -> (Bool, Bool) in
            state.syncs += 1
            return (state.offline, !state.accounts.isEmpty && state.signedIn == nil)
        }
        if offline { throw SyncError(.pushAbortedNetwork, "The server could not be reached") }
        if signedOut { throw SyncError(.pushAbortedAuthentication, "Unauthorized") }
        while let prompt = state.withLock({ $0.conflicts.isEmpty ? nil : $0.conflicts.removeFirst() }) {
            let answer = await ask(prompt)
            state.withLock { $0.answers.append(answer) }
            switch answer.choice {
            case .cancel: throw SyncError(.pushAbortedCancelled, "Cancelled")
            case .useServer: commit { $0.pending.remove(prompt.itemId); $0.local[prompt.itemId] = $0.server[prompt.itemId] }
            case .useClient: break
            }
        }
        commit { state in
            for id in state.pending { state.server[id] = state.local[id] }
            state.pending = []
            for (id, item) in state.server { state.local[id] = item }
            state.lastSync = Date()
        }
    }
}
