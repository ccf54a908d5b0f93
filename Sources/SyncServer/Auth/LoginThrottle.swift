import Foundation
import Synchronization

/// Slows password guessing per account and client address: after `freeFailures` failed logins
/// the pair is locked out for a time that doubles with each further failure (1 minute up to
/// 15). Another account from the same address, or the same account from another address, is
/// not affected. Kept in memory per process; bounded so a flood of names cannot grow it.
final class LoginThrottle: Sendable {
    struct Key: Hashable {
        var user: String
        var address: String
    }

    private struct Failures {
        var count: Int
        var lockedUntil: Date?
        var last: Date
    }

    static let freeFailures = 5
    static let firstLockout: TimeInterval = 60
    static let longestLockout: TimeInterval = 15 * 60
    private static let maxEntries = 10_000
    private let failures = Mutex<[Key: Failures]>([:])

    /// Seconds the pair must wait before trying again, or nil when it may try now.
    func retryAfter(_ key: Key, now: Date = Date()) -> Int? {
        failures.withLock { table in
            guard let until = table[key]?.lockedUntil, until > now else { return nil }
            return Int(until.timeIntervalSince(now).rounded(.up))
        }
    }

    /// Counts a failed login.
    func fail(_ key: Key, now: Date = Date()) {
        failures.withLock { table in
            if table.count >= Self.maxEntries, table[key] == nil {
                // Forget failures that are no longer locking anything out, then the oldest.
                table = table.filter { ($0.value.lockedUntil ?? .distantPast) > now }
                if table.count >= Self.maxEntries, let oldest = table.min(by: { $0.value.last < $1.value.last })?.key { table[oldest] = nil }
            }
            var entry = table[key] ?? Failures(count: 0, lockedUntil: nil, last: now)
            if let until = entry.lockedUntil, now.timeIntervalSince(until) > Self.longestLockout { entry.count = 0 }  // long quiet: start over
            entry.count += 1
            entry.last = now
            if entry.count >= Self.freeFailures {
                let doublings = Double(entry.count - Self.freeFailures)
                entry.lockedUntil = now.addingTimeInterval(min(Self.longestLockout, Self.firstLockout * pow(2, doublings)))
            }
            table[key] = entry
        }
    }

    /// A successful login clears the pair's failures.
    func succeed(_ key: Key) {
        _ = failures.withLock { $0.removeValue(forKey: key) }
    }
}
