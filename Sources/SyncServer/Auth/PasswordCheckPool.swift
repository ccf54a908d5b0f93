import Foundation
import NIOPosix
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs password hashing (PBKDF2, about 0.1 s of CPU per check) on a few threads of its own at
/// a lower scheduling priority, never on the threads that serve requests, with a bounded queue.
///
/// Before, clients posting logins with random names made another user's `GET /tables/TodoItem`
/// crawl, because the hashing ran on the event loops (BENCHMARKS.md, "Signing in under a login
/// flood"). Here a flood can only fill this pool: past `maxWaiting` checks a login answers 429 at
/// once, and the request threads, at normal priority, preempt the hashing threads.
public final class PasswordCheckPool: Sendable {
    private let pool: NIOThreadPool
    private let waiting = Mutex(0)
    private let maxWaiting: Int

    /// The process's pool: half the cores (at least one), 64 checks queued at most.
    public static let shared = PasswordCheckPool(threads: max(1, ProcessInfo.processInfo.activeProcessorCount / 2), maxWaiting: 64)

    /// A pool of `threads` threads that queues at most `maxWaiting` checks.
    public init(threads: Int, maxWaiting: Int) {
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        self.maxWaiting = maxWaiting
    }

    /// True when `password` is the one `hash` was made from; 429 when the queue is full.
    func matches(_ hash: PasswordHash, _ password: String) async throws -> Bool {
        try await run { hash.matches(password) }
    }

    /// Runs `body` on the pool; 429 when `maxWaiting` checks are queued or running already.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> T {
        let admitted = waiting.withLock { count -> Bool in
            guard count < maxWaiting else { return false }
            count += 1
            return true
        }
        guard admitted else { throw TableError.busy("The server is busy checking passwords; try again in a second", retryAfter: 1) }
        defer { waiting.withLock { $0 -= 1 } }
        return try await pool.runIfActive {
            Self.lowerThisThreadsPriority()
            return body()
        }
    }

    /// Nice 10 for the calling thread only: on Linux the nice value is per thread, and
    /// `setpriority` with who = 0 means the calling thread. Setting it again costs one system call.
    private static func lowerThisThreadsPriority() {
        #if canImport(Glibc)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        #endif
    }
}
