import Synchronization
import TodoModel

/// A window's rows at the top level read lately, each with their progress and the store's write
/// count they were read at (`SyncContext.settledWrites`): folding, unfolding and scrolling
/// through a long run of subtasks read the same rows at the top again, which stay until a write.
final class TopRowsCache: Sendable {
    /// Rows at the top level of one window, and the progress of those that have subtasks.
    struct Rows: Sendable {
        var items: [TodoItem]
        var progress: [String: SubtaskProgress]
    }

    private let entries = Mutex<[(key: ListWindowRequest, writes: UInt64, rows: Rows)]>([])

    /// Windows kept.
    static let capacity = 4

    /// The rows of the window `request` asks for, read at `writes`, if kept.
    func rows(of request: ListWindowRequest, at writes: UInt64) -> Rows? {
        let key = Self.key(request)
        return entries.withLock { entries in entries.first { $0.key == key && $0.writes == writes }?.rows }
    }

    /// Keeps a window's rows read at `writes`, in place of any read at another count.
    func keep(_ rows: Rows, of request: ListWindowRequest, at writes: UInt64) {
        let key = Self.key(request)
        entries.withLock { entries in
            entries.removeAll { $0.key == key || $0.writes != writes }
            entries.insert((key, writes, rows), at: 0)
            if entries.count > Self.capacity { entries.removeLast() }
        }
    }

    /// The request less what changes only the subtasks under its rows.
    private static func key(_ request: ListWindowRequest) -> ListWindowRequest {
        var key = request
        key.unfolded = []
        key.keptFolded = []
        key.screenTop = nil
        key.reading = 0
        return key
    }
}
