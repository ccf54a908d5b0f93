import Hummingbird
import NIOCore
import Prometheus

/// `GET /metrics` (with `--metrics`): request counts and latencies by route and status (from
/// Hummingbird's `MetricsMiddleware`), database connections in use, open change feeds.
///
/// With accounts it is the operator's (`MetricsAccess`): a scrape sends the token from
/// `--metrics-token-file`. Labels name route templates (`/tables/{table}`), never a table, an item
/// or an account.
struct MetricsRoute {
    let database: any SQLDatabase
    let hub: ChangeHub
    let access: MetricsAccess
    let authenticator: Authenticator
    /// The metrics' name prefix (`ServerConfiguration.metricsNamespace`).
    let namespace: String

    /// The Prometheus text format, version 0.0.4.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    func register(on router: Router<TableRequestContext>) {
        let registry = ServerMetrics.registry, namespace = self.namespace
        func gauge(_ name: String, _ help: String, _ labels: [(String, String)] = []) -> Gauge {
            registry.makeGauge(descriptor: MetricNameDescriptor(namespace: namespace, metricName: name, unitName: "", helpText: help), labels: labels)
        }
        let connections = "Database connections by state (SQLite: the read connections)"
        let inUse = gauge("db_connections", connections, [("state", "in_use")])
        let idle = gauge("db_connections", connections, [("state", "idle")])
        let waiting = gauge("db_connection_waiters", "Requests waiting for a database connection")
        let capacity = gauge("db_connection_capacity", "The most connections the pool opens (0: no fixed limit)")
        let feeds = gauge("change_feed_subscribers", "Open change feeds")
        let serving = gauge("read_replicas_serving", "Standbys (--read-database) serving reads now")
        let reads = "Pulls and item reads since start, by where they ran"
        let standbyReads = gauge("replica_reads", reads, [("database", "standby")])
        let fallbacks = gauge("replica_reads", reads, [("database", "primary_fallback")])
        let database = self.database, hub = self.hub, access = self.access, authenticator = self.authenticator
        router.get("metrics") { request, _ in
            try await access.check(request.headers) { await authenticator.tokens.account(for: $0) != nil }
            // Gauges are read when scraped rather than kept up to date on every request.
            let use = await database.connectionUse()
            inUse.set(Int64(use.inUse))
            idle.set(Int64(use.idle))
            waiting.set(Int64(use.waiting))
            capacity.set(Int64(use.capacity ?? 0))
            feeds.set(Int64(hub.subscriberCount))
            if let replicas = use.replicas {
                serving.set(Int64(replicas.serving))
                standbyReads.set(Int64(replicas.standbyReads))
                fallbacks.set(Int64(replicas.primaryFallbacks))
            }
            return Response(
                status: .ok, headers: [.contentType: Self.contentType],
                body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
    }
}
