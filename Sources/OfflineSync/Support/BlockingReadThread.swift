import Dispatch

/// Runs a live query's blocking store reads on a thread of its own (a serial dispatch queue,
/// which libdispatch backs with a thread whenever it has work), not on the cooperative pool:
/// that pool has one thread per core (two here), so two counts over a million rows held both
/// and the screen's next window waited for them to finish (BENCHMARKS.md, "The app at a million
/// items": cold start, switching view). On threads of their own the system shares the cores
/// between them, and a short read is not queued behind long ones.
final class BlockingReadThread: Sendable {
    private let queue = DispatchQueue(label: "OfflineSync.live-query")

    /// `work`'s result, run on this thread. When the waiting task is cancelled, the store's
    /// read in `work` is interrupted (`ReadCancellation`) and throws.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        let cancellation = ReadCancellation()
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
