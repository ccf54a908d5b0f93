import Synchronization

/// Names the statements this process prepares: at most `capacity` distinct ones, first come
/// first served, each prepared lazily on every connection that runs it. A statement past the
/// capacity runs unnamed (parsed each time), so clients sending ever new filters cannot make
/// every connection keep ever more prepared statements.
final class PostgresStatementNames: Sendable {
    private let names = Mutex([String: String]())
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The name of the statement with this text and parameter types, or nil when it runs unnamed.
    func name(for key: String) -> String? {
        names.withLock { names in
            if let name = names[key] { return name }
            guard names.count < capacity else { return nil }
            let name = "offline_todo_\(names.count)"
            names[key] = name
            return name
        }
    }
}
