import Dispatch
import Logging
import PostgresNIO
import Synchronization

/// A fixed number of PostgreSQL connections, each with a serial queue; reconnects lazily.
///
/// A lock rather than an actor: taking a free connection is a few instructions, where an
/// actor hop cost two thread switches on every request. The connections are spread over the
/// event loops, and a request on one takes a free connection of its own loop when there is
/// one, so its query, reply and response stay on one thread: more pages and inserts a second
/// (BENCHMARKS.md, "todo-server": (a) and (b) on PostgreSQL).
final class PostgresConnectionPool: Sendable {
    /// One checked-out connection and the queue its blocking work runs on.
    struct Slot: Sendable {
        let index: Int
        let connection: PostgresConnection
        let queue: DispatchQueue
        /// The pull pages prepared on this slot's connection.
        let pages: PostgresPreparedPages
    }

    private struct State {
        var idle: [Int]
        var connections: [PostgresConnection?]
        var waiters: [CheckedContinuation<Int, Never>] = []
    }

    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private let queues: [DispatchQueue]
    private let pages: [PostgresPreparedPages]
    /// The event loop of each slot's connection.
    private let loops: [any EventLoop]
    private let state: Mutex<State>

    init(configuration: PostgresConnection.Configuration, size: Int, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.queues = (0..<size).map { DispatchQueue(label: "postgres.connection.\($0)") }
        self.pages = (0..<size).map { _ in PostgresPreparedPages() }
        let group = Array(PostgresConnection.defaultEventLoopGroup.makeIterator())
        self.loops = (0..<size).map { group[$0 % group.count] }
        self.state = Mutex(State(idle: Array(0..<size), connections: Array(repeating: nil, count: size)))
    }

    func acquire() async throws -> Slot {
        let index = await withCheckedContinuation { (waiter: CheckedContinuation<Int, Never>) in
            let free = state.withLock { state -> Int? in
                if let own = state.idle.lastIndex(where: { loops[$0].inEventLoop }) { return state.idle.remove(at: own) }
                if let free = state.idle.popLast() { return free }
                state.waiters.append(waiter)
                return nil
            }
            if let free { waiter.resume(returning: free) }
        }
        if let existing = state.withLock({ $0.connections[index] }), !existing.isClosed {
            return Slot(index: index, connection: existing, queue: queues[index], pages: pages[index])
        }
        do {
            let connection = try await PostgresConnection.connect(on: loops[index], configuration: configuration, id: index, logger: logger)
            state.withLock { $0.connections[index] = connection }
            return Slot(index: index, connection: connection, queue: queues[index], pages: pages[index])
        } catch {
            hand(index)
            throw error
        }
    }

    func release(_ slot: Slot) {
        hand(slot.index)
    }

    /// Slots lent out, connections open and idle, and requests waiting for a slot.
    var use: ConnectionUse {
        state.withLock { state in
            let open = state.idle.filter { state.connections[$0].map { !$0.isClosed } ?? false }.count
            return ConnectionUse(inUse: state.connections.count - state.idle.count, idle: open, capacity: state.connections.count, waiting: state.waiters.count)
        }
    }

    func close() async {
        let open = state.withLock { state in
            defer { state.connections = state.connections.map { _ in nil } }
            return state.connections.compactMap { $0 }
        }
        for connection in open { try? await connection.close() }
    }

    private func hand(_ index: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Int, Never>? in
            if state.waiters.isEmpty {
                state.idle.append(index)
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.resume(returning: index)
    }
}
