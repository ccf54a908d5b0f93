import Synchronization

/// Runs async jobs strictly one after another, in the order they were submitted
/// (an actor would interleave them at every `await`).
final class SerialWorkQueue: Sendable {
    /// The last job submitted; the next one waits for it.
    private let tail = Mutex<Task<Void, Never>?>(nil)

    /// Runs `work` after every job submitted before it. Cancelling the caller cancels the job
    /// (it runs in a task of its own, which the caller's cancellation would not reach).
    func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let job = enqueue(work)
        return try await withTaskCancellationHandler { try await job.value } onCancel: { job.cancel() }
    }

    private func enqueue<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
        tail.withLock { tail in
            let previous = tail
            let job = Task<T, any Error> {
                await previous?.value
                return try await work()
            }
            tail = Task { _ = try? await job.value }
            return job
        }
    }
}
