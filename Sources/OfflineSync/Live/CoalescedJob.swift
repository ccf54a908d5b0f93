import Synchronization

/// Runs an async job on request, one run at a time: requests made while it runs fold into one
/// more run afterwards (many feed events, one pull at a time).
final class CoalescedJob: Sendable {
    private let state = Mutex<(running: Bool, again: Bool)>((false, false))
    private let job: @Sendable () async -> Void

    init(_ job: @escaping @Sendable () async -> Void) { self.job = job }

    /// Runs the job now, or once more after the current run.
    func request() {
        let start = state.withLock { state -> Bool in
            if state.running {
                state.again = true
                return false
            }
            state.running = true
            return true
        }
        if start { Task { await loop() } }
    }

    private func loop() async {
        repeat { await job() } while state.withLock { state -> Bool in
            if state.again {
                state.again = false
                return true
            }
            state.running = false
            return false
        }
    }
}
