import Synchronization

/// One client address's share of the password hashing: at most `running` of its checks in
/// `PasswordCheckPool` at once, the next `waiting` queued behind them in order, and 429 past
/// that. A flood from one address then holds a few of the pool's places, whatever names it
/// tries, while a household or an office behind the same address still signs in, only later:
/// nobody's correct password is refused for someone else's failures.
final class AddressShare: Sendable {
    /// An address's checks in the pool at once: a sixteenth of `PasswordCheckPool.shared`'s queue.
    static let running = 4
    /// An address's checks queued behind those.
    static let waiting = 32

    private struct Address {
        var running = 0
        var queue: [CheckedContinuation<Void, Never>] = []
    }

    private let addresses = Mutex<[String: Address]>([:])

    /// How many of `address`'s checks wait for a place now.
    func waitingCount(for address: String) -> Int { addresses.withLock { $0[address]?.queue.count ?? 0 } }

    /// Runs `check` within `address`'s share, after the address's earlier checks when it has
    /// `running` of them on their way; 429 at once when `waiting` more wait already.
    func run<T>(for address: String, _ check: () async throws -> T) async throws -> T {
        try await enter(address)
        defer { leave(address) }
        return try await check()
    }

    private func enter(_ address: String) async throws {
        enum Entry { case now, queued, refused }
        var entry = Entry.now
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            // Decided, and queued, under one lock: a place freed meanwhile is never missed.
            entry = addresses.withLock { table -> Entry in
                var state = table[address, default: Address()]
                defer { table[address] = state }
                if state.running < Self.running {
                    state.running += 1
                    return .now
                }
                guard state.queue.count < Self.waiting else { return .refused }
                state.queue.append(turn)
                return .queued
            }
            if entry != .queued { turn.resume() }
        }
        if entry == .refused { throw TableError.tooManyRequests(retryAfter: 1) }
    }

    private func leave(_ address: String) {
        let next = addresses.withLock { table -> CheckedContinuation<Void, Never>? in
            guard var state = table[address] else { return nil }
            if state.queue.isEmpty {
                state.running -= 1
                table[address] = state.running > 0 ? state : nil
                return nil
            }
            // The place passes straight to the oldest waiter: `running` stays as it is.
            let next = state.queue.removeFirst()
            table[address] = state
            return next
        }
        next?.resume()
    }
}
