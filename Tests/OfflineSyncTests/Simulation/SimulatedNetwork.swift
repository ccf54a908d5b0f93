import Foundation
import OfflineSync
import Synchronization

/// The wire between the simulated devices and the server, in one process. A device's request
/// does not travel by itself: it waits here until the scheduler delivers it (or drops it), and
/// its reply waits until the scheduler hands it back. Between two choices the scheduler waits
/// until every device that is syncing has sent its next request or finished, so what each
/// choice sees is the same on every run of a seed.
final class SimulatedNetwork: Sendable {
    /// A request waiting to be delivered.
    struct Parked {
        let request: HTTPRequestSpec
        let continuation: CheckedContinuation<HTTPReply, any Error>
    }

    private struct State {
        var parked: [Int: [Parked]] = [:]
        var busy: Set<Int> = []
        var waiter: CheckedContinuation<Void, Never>?
        /// Set when a device had two requests out at once: the order between them would be the
        /// OS scheduler's, not the seed's, and the history could not be replayed.
        var concurrentRequests = false

        var settled: Bool { busy.allSatisfy { !(parked[$0] ?? []).isEmpty } }
    }

    private let state = Mutex(State())

    /// One device's end of the wire.
    func link(for device: Int) -> any HTTPTransport { Link(device: device, network: self) }

    /// True when some device ever had two requests out at once (see `State.concurrentRequests`).
    var sawConcurrentRequests: Bool { state.withLock { $0.concurrentRequests } }

    /// Runs `operation` for `device` as its own task: the device is busy until it ends.
    func start(device: Int, _ operation: @escaping @Sendable () async -> Void) {
        state.withLock { _ = $0.busy.insert(device) }
        Task {
            await operation()
            self.update { $0.busy.remove(device) }
        }
    }

    /// Waits until every busy device has a request waiting, or is busy no more.
    func settle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.settled { return true }
                state.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// The devices busy now, in order.
    var busyDevices: [Int] { state.withLock { $0.busy.sorted() } }

    /// `device`'s oldest waiting request, left on the wire.
    func waiting(from device: Int) -> HTTPRequestSpec? { state.withLock { $0.parked[device]?.first?.request } }

    /// Takes `device`'s oldest waiting request off the wire; the caller answers it.
    func take(from device: Int) -> Parked? {
        state.withLock { state in
            guard var queue = state.parked[device], !queue.isEmpty else { return nil }
            let first = queue.removeFirst()
            state.parked[device] = queue
            return first
        }
    }

    fileprivate func park(_ device: Int, _ request: HTTPRequestSpec) async throws -> HTTPReply {
        try await withCheckedThrowingContinuation { continuation in
            update { state in
                state.parked[device, default: []].append(Parked(request: request, continuation: continuation))
                if state.parked[device]!.count > 1 { state.concurrentRequests = true }
            }
        }
    }

    private func update(_ change: (inout State) -> Void) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            change(&state)
            guard state.settled, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    private struct Link: HTTPTransport {
        let device: Int
        let network: SimulatedNetwork

        func send(_ request: HTTPRequestSpec) async throws -> HTTPReply { try await network.park(device, request) }
    }
}
