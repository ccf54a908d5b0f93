import Foundation
import Synchronization

/// Slows password guessing per account and client address: after `freeFailures` failed logins
/// a (name, address) pair (with an app password's shape, a (name, address, that password)
/// triple) is locked out for a time that doubles with each further failure
/// (1 minute up to 15). Another account from the same address, or the same account from another
/// address, is not affected. Guessing with many names from one address is bounded by the
/// address's share of the hashing (`AddressShare`), not by locking the address out.
///
/// Kept in memory per process; bounded so a flood of names or addresses cannot grow it.
final class LoginThrottle: Sendable {
    struct Key: Hashable {
        var user: String
        var address: String
        /// The digest of an app password's shape tried: its failures lock out that credential
        /// alone. Empty for the account's own password.
        var credential = ""
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
    private let pairs = Mutex<[Key: Failures]>([:])

    /// Seconds the pair must wait before trying again, or nil when it may try now.
    func retryAfter(_ key: Key, now: Date = Date()) -> Int? {
        guard let until = pairs.withLock({ $0[key]?.lockedUntil }), until > now else { return nil }
        return Int(until.timeIntervalSince(now).rounded(.up))
    }

    /// Counts a failed login against the pair.
    func fail(_ key: Key, now: Date = Date()) {
        pairs.withLock { Self.count(key, in: &$0, now: now) }
    }

    /// A successful login clears the pair's failures.
    func succeed(_ key: Key) {
        _ = pairs.withLock { $0.removeValue(forKey: key) }
    }

    private static func count(_ key: Key, in table: inout [Key: Failures], now: Date) {
        if table.count >= maxEntries, table[key] == nil {
            // Forget failures that are no longer locking anything out, then the oldest.
            table = table.filter { ($0.value.lockedUntil ?? .distantPast) > now }
            if table.count >= maxEntries, let oldest = table.min(by: { $0.value.last < $1.value.last })?.key { table[oldest] = nil }
        }
        var entry = table[key] ?? Failures(count: 0, lockedUntil: nil, last: now)
        let quietSince = entry.lockedUntil ?? entry.last
        if now.timeIntervalSince(quietSince) > longestLockout { entry.count = 0 }  // long quiet: start over
        entry.count += 1
        entry.last = now
        if entry.count >= freeFailures {
            let doublings = Double(entry.count - freeFailures)
            entry.lockedUntil = now.addingTimeInterval(min(longestLockout, firstLockout * pow(2, doublings)))
        }
        table[key] = entry
    }
}
