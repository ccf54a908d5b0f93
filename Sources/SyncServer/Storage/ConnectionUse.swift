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
}
