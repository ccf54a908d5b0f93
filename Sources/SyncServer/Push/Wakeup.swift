import Synchronization

/// One sleeper woken by others: a signal while it is awake is kept for its next wait, so none
/// is lost between its checking for work and its going to sleep.
final class Wakeup: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    /// Wakes the sleeper, or the next one to sleep.
    func signal() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns at the next signal (at once if one is pending), after `timeout`, or when the
    /// task is cancelled.
    func wait(timeout: Duration) async {
        await withTaskCancellationHandler {
            await sleep(timeout: timeout)
        } onCancel: {
            signal()
        }
    }

    private func sleep(timeout: Duration) async {
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { self?.signal() }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.pending {
                    state.pending = false
                    return true
                }
                state.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
        timer.cancel()
        // A timer that fired as a signal arrived leaves a spurious wake-up; the loop tolerates it.
    }
}
