/// How a database's connections are used at one moment, for `GET /metrics`.
public struct ConnectionUse: Sendable, Equatable {
    /// Connections lent to a request right now.
    public var inUse: Int
    /// Open connections waiting in the pool.
    public var idle: Int
    /// The most connections the pool opens (nil: it opens one per reading thread as needed).
    public var capacity: Int?
    /// Requests waiting for a connection to come free.
    public var waiting: Int
    /// Standbys serving reads now, reads they served, and reads that went to the primary although
    /// a standby was up (it lacked a write the read needed, or failed); nil without `--read-database`.
    public var replicas: (serving: Int, standbyReads: Int, primaryFallbacks: Int)?

    public static func == (a: ConnectionUse, b: ConnectionUse) -> Bool {
        (a.inUse, a.idle, a.capacity, a.waiting) == (b.inUse, b.idle, b.capacity, b.waiting)
            && a.replicas.map { [$0.serving, $0.standbyReads, $0.primaryFallbacks] } == b.replicas.map { [$0.serving, $0.standbyReads, $0.primaryFallbacks] }
    }
}
