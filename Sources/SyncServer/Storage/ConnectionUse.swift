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
    /// Standbys serving reads now and where reads ran; nil without `--read-database`.
    public var replicas: ReplicaUse?
}

/// Read replicas at one moment, for `GET /metrics`.
public struct ReplicaUse: Sendable, Equatable {
    /// Standbys serving reads now.
    public var serving: Int
    /// Reads the standbys served since start.
    public var standbyReads: Int
    /// Reads that went to the primary although a standby was up (it lacked a write the read
    /// needed, or failed).
    public var primaryFallbacks: Int
}
