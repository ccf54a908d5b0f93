import Foundation

/// Runs async jobs strictly one after another, in the order they were submitted
/// (an actor would interleave them at every `await`).
final class SerialWorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var tail: Task<Void, Never>?

    func run<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await enqueue(work).value
    }

    private func enqueue<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
        lock.withLock {
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

/// A value guarded by a lock.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value { withLock { $0 } }
}

/// Runs async work and hands its result to a completion handler on a dispatch queue.
enum Callback {
    static func deliver<T: Sendable>(on queue: DispatchQueue, _ completion: @escaping @Sendable (Result<T, SyncError>) -> Void,
                                     _ work: @escaping @Sendable () async throws -> T) {
        Task {
            let result: Result<T, SyncError>
            do { result = .success(try await work()) } catch { result = .failure(SyncError.wrap(error)) }
            queue.async { completion(result) }
        }
    }
}
