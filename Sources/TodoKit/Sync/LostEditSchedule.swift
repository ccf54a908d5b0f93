import OfflineSync
import Synchronization
import TodoModel

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
