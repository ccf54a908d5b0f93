import Dispatch
import Logging
import PostgresNIO

/// A fixed number of PostgreSQL connections, each with a serial queue; reconnects lazily.
actor PostgresConnectionPool {
    /// One checked-out connection and the queue its blocking work runs on.
    struct Slot: Sendable {
        let index: Int
        let connection: PostgresConnection
        let queue: DispatchQueue
    }

    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private var idle: [Int]
    private var connections: [PostgresConnection?]
    private let queues: [DispatchQueue]
    private var waiters: [CheckedContinuation<Int, Never>] = []

    init(configuration: PostgresConnection.Configuration, size: Int, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.idle = Array(0..<size)
        self.connections = Array(repeating: nil, count: size)
        self.queues = (0..<size).map { DispatchQueue(label: "postgres.connection.\($0)") }
    }

    func acquire() async throws -> Slot {
        let index: Int
        if let free = idle.popLast() {
            index = free
        } else {
            index = await withCheckedContinuation { waiters.append($0) }
        }
        do {
            if let existing = connections[index], !existing.isClosed {
                return Slot(index: index, connection: existing, queue: queues[index])
            }
            let connection = try await PostgresConnection.connect(configuration: configuration, id: index, logger: logger)
            connections[index] = connection
            return Slot(index: index, connection: connection, queue: queues[index])
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
        let open = idle.filter { connections[$0].map { !$0.isClosed } ?? false }.count
        return ConnectionUse(inUse: connections.count - idle.count, idle: open, capacity: connections.count, waiting: waiters.count)
    }

    func close() async {
        for case let connection? in connections { try? await connection.close() }
        connections = connections.map { _ in nil }
    }

    private func hand(_ index: Int) {
        if waiters.isEmpty { idle.append(index) } else { waiters.removeFirst().resume(returning: index) }
    }
}
