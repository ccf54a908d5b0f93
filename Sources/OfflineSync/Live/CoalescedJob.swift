import Foundation
import Synchronization

/// Runs an async job on request, one run at a time: requests made while it runs fold into one
/// more run afterwards (many feed events, one pull at a time). A run that fails in a way worth
/// retrying is requested again after `retryDelay(failuresInARow)` seconds.
final class CoalescedJob: Sendable {
    /// How a run ended.
    enum Outcome { case done, retry }

    private let state = Mutex(State())
    private let job: @Sendable () async -> Outcome
    private let retryDelay: @Sendable (Int) -> TimeInterval

    private struct State {
        var running = false
        var again = false
        var failures = 0
        var retry: Task<Void, Never>?
        var cancelled = false
    }

    init(retryDelay: @escaping @Sendable (Int) -> TimeInterval = { _ in 1 }, _ job: @escaping @Sendable () async -> Outcome) {
        self.retryDelay = retryDelay
        self.job = job
    }

    /// Runs the job now, or once more after the current run.
    func request() {
        let start = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            if state.running {
                state.again = true
                return false
            }
            state.running = true
            return true
        }
        if start { Task { await loop() } }
    }

    /// No more runs; a pending retry is dropped (a run in progress finishes).
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            state.retry?.cancel()
            state.retry = nil
        }
    }

    private func loop() async {
        while true {
            let outcome = await job()
            let more = state.withLock { state -> Bool in
                state.failures = outcome == .retry ? state.failures + 1 : 0
                if state.again && !state.cancelled {
                    state.again = false
                    return true
                }
                state.running = false
                if outcome == .retry, !state.cancelled, state.retry == nil {
                    let delay = retryDelay(state.failures)
                    state.retry = Task { [weak self] in
                        try? await Task.sleep(for: .seconds(delay))
                        guard let self, !Task.isCancelled else { return }
                        self.state.withLock { $0.retry = nil }
                        self.request()
                    }
                }
                return false
            }
            if !more { return }
        }
    }
}
