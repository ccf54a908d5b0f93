import Foundation
import Synchronization

/// A value read from somewhere slow, kept for `maxAge` seconds, then read again by the next
/// caller that needs it (callers in between get the kept copy).
final class RefreshingValue<Value: Sendable>: Sendable {
    private let maxAge: TimeInterval
    private let load: @Sendable () async throws -> Value
    private let kept = Mutex<(value: Value, at: Date)?>(nil)

    init(maxAge: TimeInterval, load: @escaping @Sendable () async throws -> Value) {
        self.maxAge = maxAge
        self.load = load
    }

    /// The kept value if fresh enough, else a newly loaded one.
    func value() async throws -> Value {
        if let hit = kept.withLock({ $0 }), Date().timeIntervalSince(hit.at) < maxAge { return hit.value }
        let value = try await load()
        kept.withLock { $0 = (value, Date()) }
        return value
    }
}
