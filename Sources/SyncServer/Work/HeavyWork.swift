import Synchronization

/// Where CPU-heavy requests run, and how many: on `WorkerThreads` (never on the threads that
/// answer every other request), at most `perAccount` of one account's at once (past that 503
/// with `Retry-After`, other accounts unaffected), each with a `RequestDeadline`.
public final class HeavyWork: Sendable {
    /// The most heavy requests one account runs at once.
    public let perAccount: Int
    /// How long one heavy request may compute.
    public let deadline: Duration
    private let running = Mutex<[String: Int]>([:])

    /// A gate letting `perAccount` requests of an account run at once, each for `deadline`.
    public init(perAccount: Int, deadline: Duration) {
        self.perAccount = perAccount
        self.deadline = deadline
    }

    /// `work`'s answer, computed on the worker threads under the deadline; `TableError.overloaded`
    /// when `account` already runs `perAccount` heavy requests.
    public func run<T: Sendable>(account: String, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let admitted = running.withLock { running in
            guard running[account, default: 0] < perAccount else { return false }
            running[account, default: 0] += 1
            return true
        }
        guard admitted else {
            throw TableError.overloaded("This account already has \(perAccount) large requests running; try again shortly", retryAfter: 1)
        }
        defer {
            running.withLock { running in
                running[account, default: 1] -= 1
                if running[account] == 0 { running[account] = nil }
            }
        }
        return try await RequestDeadline.$instant.withValue(ContinuousClock.now.advanced(by: deadline)) {
            // A child task starts on its preferred executor; a preference set on the running task
            // would only apply from its next suspension.
            try await withThrowingTaskGroup(of: T.self) { group in
                group.addTask(executorPreference: WorkerThreads.shared) { try await work() }
                return try await group.next()!
            }
        }
    }
}
