import Foundation
import Synchronization

/// Slows password guessing per account and client address, and per client address alone.
///
/// - After `freeFailures` failed logins a (name, address) pair is locked out for a time that
///   doubles with each further failure (1 minute up to 15). Another account from the same
///   address, or the same account from another address, is not affected.
/// - After `freeAddressFailures` failed logins from one address, whatever the names, the address
///   is locked out the same way: guessing with many names (or random ones, to make the server
///   hash passwords for nothing) stops there. Successes do not clear it; it starts over after a
///   quiet spell as long as the longest lockout.
///
/// Kept in memory per process; bounded so a flood of names or addresses cannot grow it.
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
    static let freeAddressFailures = 30
    static let firstLockout: TimeInterval = 60
    static let longestLockout: TimeInterval = 15 * 60
    private static let maxEntries = 10_000
    private let pairs = Mutex<[Key: Failures]>([:])
    private let addresses = Mutex<[String: Failures]>([:])

    /// Seconds the pair (or its address) must wait before trying again, or nil when it may try now.
    func retryAfter(_ key: Key, now: Date = Date()) -> Int? {
        let until = [pairs.withLock { $0[key]?.lockedUntil }, addresses.withLock { $0[key.address]?.lockedUntil }]
            .compactMap { $0 }.filter { $0 > now }.max()
        return until.map { Int($0.timeIntervalSince(now).rounded(.up)) }
    }

    /// Counts a failed login against the pair and its address.
    func fail(_ key: Key, now: Date = Date()) {
        pairs.withLock { Self.count(key, in: &$0, free: Self.freeFailures, now: now) }
        addresses.withLock { Self.count(key.address, in: &$0, free: Self.freeAddressFailures, now: now) }
    }

    /// A successful login clears the pair's failures (not its address's).
    func succeed(_ key: Key) {
        _ = pairs.withLock { $0.removeValue(forKey: key) }
    }

    private static func count<K: Hashable>(_ key: K, in table: inout [K: Failures], free: Int, now: Date) {
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
        if entry.count >= free {
            let doublings = Double(entry.count - free)
            entry.lockedUntil = now.addingTimeInterval(min(longestLockout, firstLockout * pow(2, doublings)))
        }
        table[key] = entry
    }
}
