import Foundation
import Synchronization

/// Runs a live query's blocking store reads on a thread of its own (a serial dispatch queue,
/// which libdispatch backs with a thread whenever it has work), not on the cooperative pool:
/// that pool has one thread per core (two here), so two counts over a million rows held both
/// and the screen's next window waited for them to finish (BENCHMARKS.md, "The app at a million
/// items": cold start, switching view). On threads of their own the system shares the cores
/// between them, and a short read is not queued behind long ones.
///
/// A query's first read runs at the app's priority: someone is waiting for it. Its reads after a
/// commit run at background priority (libdispatch on Linux gives such a thread nice 10): the
/// app's own threads, which apply the keys typed meanwhile and draw them, come first when the
/// cores are busy (BENCHMARKS.md, "todo (terminal client)": a move by hand).
final class BlockingReadThread: Sendable {
    /// Whom a read is for.
    enum Priority {
        /// A new query's first result, which someone waits for.
        case awaited
        /// The query's result again after a commit: it replaces one already shown.
        case refresh
    }

    private let awaited = DispatchQueue(label: "OfflineSync.live-query")
    private let refresh = DispatchQueue(label: "OfflineSync.live-query.refresh", qos: .background)

    /// Made where the query is observed, at the app's priority, as the relay's thread must be.
    init() { _ = ResumeRelay.shared }

    /// `work`'s result, run on this thread at `priority`. When the waiting task is cancelled, the
    /// store's read in `work` is interrupted (`ReadCancellation`) and throws.
    func run<T: Sendable>(_ priority: Priority, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let cancellation = ReadCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let read: @Sendable () -> Result<T, any Error> = { Result { try ReadCancellation.$current.withValue(cancellation) { try work() } } }
                switch priority {
                case .awaited: awaited.async { continuation.resume(with: read()) }
                case .refresh:
                    refresh.async {
                        let result = read()
                        ResumeRelay.shared.run { continuation.resume(with: result) }
                    }
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}

/// Resumes the waits of background reads from a thread at the app's priority. Resuming a task
/// can make libdispatch start a worker thread, which takes the nice of the thread that woke it,
/// and a process that is not privileged cannot lower it again: a background thread that resumed
/// the task itself would leave the app's tasks running at nice 10.
final class ResumeRelay: Sendable {
    /// The one relay, whose thread starts with the first `BlockingReadThread`.
    static let shared = ResumeRelay()

    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let signal = DispatchSemaphore(value: 0)

    private init() {
        let thread = Thread { [self] in
            while true {
                signal.wait()
                for job in jobs.withLock({ jobs in defer { jobs = [] }; return jobs }) { job() }
            }
        }
        thread.name = "OfflineSync.resume-relay"
        thread.start()
    }

    /// Runs `job` on the relay's thread. Waking it is a futex, which starts no thread.
    func run(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        signal.signal()
    }
}
