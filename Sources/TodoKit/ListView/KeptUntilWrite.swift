import Synchronization

/// Values read lately, each by its key with the store's write count it was read at
/// (`SyncContext.settledWrites`): what a read finds kept at the current count is still true, and
/// a write makes every entry stale. The newest `capacity` keys are kept.
final class KeptUntilWrite<Key: Equatable & Sendable, Value: Sendable>: Sendable {
    private let entries = Mutex<[(key: Key, writes: UInt64, value: Value)]>([])
    private let capacity: Int

    /// An empty store of at most `capacity` values.
    init(capacity: Int) { self.capacity = capacity }

    /// The value of `key` read at `writes`, if kept.
    func value(of key: Key, at writes: UInt64) -> Value? {
        entries.withLock { entries in entries.first { $0.key == key && $0.writes == writes }?.value }
    }

    /// Keeps a value read at `writes`, in place of the same key's and of any read at another count.
    func keep(_ value: Value, of key: Key, at writes: UInt64) {
        entries.withLock { entries in
            entries.removeAll { $0.key == key || $0.writes != writes }
            entries.insert((key, writes, value), at: 0)
            if entries.count > capacity { entries.removeLast() }
        }
    }
}
