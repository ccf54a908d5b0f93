import Foundation

/// Runs blocking work (waiting for a child process, reading its output) on a thread of its own.
/// Swift concurrency has one thread per core (two on CI): a test that blocks one of them stalls
/// every other test's async work, and tests that wait for an answer within a time then fail.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
