import Dispatch

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

    /// `work`'s result, run on this thread at `priority`. When the waiting task is cancelled, the
    /// store's read in `work` is interrupted (`ReadCancellation`) and throws.
    func run<T: Sendable>(_ priority: Priority, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let cancellation = ReadCancellation()
        let queue = priority == .awaited ? awaited : refresh
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    continuation.resume(with: Result { try ReadCancellation.$current.withValue(cancellation) { try work() } })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}
