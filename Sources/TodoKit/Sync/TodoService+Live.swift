import OfflineSync
import Synchronization
import TodoModel

extension TodoService {
    /// Live mode for the todo table: the same pull and push as `sync()` (same conflict handling),
    /// run by themselves when the server announces a change or a local change is made.
    /// Not started; `onState` and `onSync` are called on background tasks.
    public func makeLiveSync(options: LiveSync.Options = LiveSync.Options(),
                             onState: @escaping @Sendable (LiveSyncState) -> Void,
                             onSync: @escaping @Sendable (LiveSyncActivity, SyncError?) -> Void,
                             onChange: @escaping @Sendable (FeedChange) -> Void = { _ in }) -> LiveSync? {
        guard serverURL != nil else { return nil }
        let lostEdits = LostEditSchedule()
        return LiveSync(context: context, tables: [TodoList.tableName, TodoTable.name, LostEdit.tableName], options: options,
                        pull: {
                            let due = lostEdits.take()
                            do {
                                try await self.sync(push: false, pull: true, lostEdits: due)
                            } catch {
                                if due { lostEdits.mark() }  // the retry fetches them
                                throw error
                            }
                        },
                        push: { try await self.sync(push: true, pull: false) },
                        onState: { state in
                            lostEdits.saw(state)
                            onState(state)
                        },
                        onSync: onSync,
                        onChange: { change in
                            if change.table.lowercased() == LostEdit.tableName.lowercased() { lostEdits.mark() }
                            onChange(change)
                        })
    }
}

/// When a live pull fetches the server's lost edits, which are rare: when the feed tells of one,
/// when it catches up after (re)connecting, and on every poll without a feed; not on every
/// change of an item, which would cost each device one more request per space and pull.
final class LostEditSchedule: Sendable {
    private let state = Mutex((due: true, polling: false))

    /// True when this pull fetches them; the next does only if marked again.
    func take() -> Bool {
        state.withLock { state in
            defer { state.due = false }
            return state.due || state.polling
        }
    }

    /// The next pull fetches them.
    func mark() { state.withLock { $0.due = true } }

    /// A (re)connected feed's catch-up pull fetches them; without a feed, every poll does.
    func saw(_ live: LiveSyncState) {
        switch live {
        case .live: mark()
        case .polling: state.withLock { $0.polling = true }
        default: break
        }
    }
}
