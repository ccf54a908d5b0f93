import Synchronization

/// Names the statements this process prepares: at most `capacity` distinct ones, first come
/// first served, each prepared lazily on every connection that runs it. A statement past the
/// capacity runs unnamed (parsed each time), so clients sending ever new filters cannot make
/// every connection keep ever more prepared statements.
final class PostgresStatementNames: Sendable {
    private struct State {
        var names: [String: String] = [:]
        /// Names ever given: a retired name is never given again.
        var given = 0
    }

    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The name of the statement with this text and parameter types, or nil when it runs unnamed.
    func name(for key: String) -> String? {
        state.withLock { state in
            if let name = state.names[key] { return name }
            guard state.names.count < capacity else { return nil }
            let name = "sync_\(state.given)"
            state.given += 1
            state.names[key] = name
            return name
        }
    }

    /// Forgets the statement's name: its next use prepares it anew under another name.
    /// PostgresNIO keeps a statement that failed to prepare failed under its name on that
    /// connection, so a table dropped by hand and made again would otherwise fail there for good.
    func retire(_ key: String) {
        _ = state.withLock { $0.names.removeValue(forKey: key) }
    }
}
