import Foundation
import Synchronization

/// A value read from somewhere slow, kept for `maxAge` seconds, then read again by the next
/// caller that needs it (callers in between get the kept copy). A copy's age counts from when its
/// read began, so what it says is never older than `maxAge`, however long the read took (a slow
/// read under load once let a revoked token through longer than `maxAge` after its account was
/// removed). A read that began before `forget()` is never kept: it could hold what `forget()`
/// was called to drop (a revoked app password signed in again when another request's older read
/// finished after the revocation).
final class RefreshingValue<Value: Sendable>: Sendable {
    private let maxAge: TimeInterval
    private let load: @Sendable () async throws -> Value
    private let state = Mutex<(kept: (value: Value, at: Date)?, forgotten: UInt64)>((nil, 0))

    init(maxAge: TimeInterval, load: @escaping @Sendable () async throws -> Value) {
        self.maxAge = maxAge
        self.load = load
    }

    /// Drops the kept value: the next caller reads it anew (a change made by this process is
    /// then seen at once).
    func forget() {
        state.withLock { $0.kept = nil; $0.forgotten &+= 1 }
    }

    /// The kept value if fresh enough (and loaded after `loadedAfter`, when given), else a newly loaded one.
    func value(loadedAfter: Date? = nil) async throws -> Value {
        let (hit, epoch) = state.withLock { ($0.kept, $0.forgotten) }
        if let hit, Date().timeIntervalSince(hit.at) < maxAge, loadedAfter.map({ hit.at > $0 }) ?? true { return hit.value }
        let started = Date()
        let value = try await load()
        // Kept unless forgotten since, or a read begun later was kept meanwhile.
        state.withLock { if $0.forgotten == epoch, ($0.kept?.at ?? .distantPast) < started { $0.kept = (value, started) } }
        return value
    }
}
