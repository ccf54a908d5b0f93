import Foundation
import Synchronization

/// Bridges between async code and completion handlers, both ways, for the SDK's two API forms
/// and its delegate calls.
enum Callback {
    /// Runs async work and hands its result to a completion handler on a dispatch queue.
    static func deliver<T: Sendable>(on queue: DispatchQueue, _ completion: @escaping @Sendable (Result<T, SyncError>) -> Void,
                                     _ work: @escaping @Sendable () async throws -> T) {
        Task {
            let result: Result<T, SyncError>
            do { result = .success(try await work()) } catch { result = .failure(SyncError.wrap(error)) }
            queue.async { completion(result) }
        }
    }

    /// Calls `call` on a dispatch queue and waits for the first value it hands its completion
    /// handler; later calls are ignored (a delegate that calls back twice must not crash the push).
    static func awaitCompletion<T: Sendable>(on queue: DispatchQueue,
                                             _ call: @escaping @Sendable (@escaping @Sendable (T) -> Void) -> Void) async -> T {
        await withCheckedContinuation { continuation in
            let once = OnceContinuation(continuation)
            queue.async { call { once.resume(returning: $0) } }
        }
    }
}

/// A continuation resumed at most once, however often a completion handler is called.
private final class OnceContinuation<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, Never>?>

    init(_ continuation: CheckedContinuation<T, Never>) { self.continuation = Mutex(continuation) }

    func resume(returning value: T) {
        // Taken under the lock, resumed outside it: resuming may run the waiting task inline.
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}
