import ServiceLifecycle

/// Runs beside the HTTP server: the feeds' shared heartbeat and, on PostgreSQL, the LISTEN relay
/// that brings every process's commits (and schema changes, for `schemas`) to this one. Shut down after the server (services stop in
/// reverse order), then ends whatever feeds remain.
struct ChangeFeedService: Service {
    let hub: ChangeHub
    let database: any SQLDatabase
    let schemas: SchemaRegistry
    /// Seconds between heartbeat comments on every open feed.
    let heartbeat: Double

    func run() async throws {
        defer { hub.close() }
        let hub = self.hub
        let heartbeat = self.heartbeat
        let postgres = database as? PostgresDatabase
        let schemas = self.schemas
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await hub.runHeartbeat(every: heartbeat) }
                if let postgres { group.addTask { await postgres.relayChanges(to: hub) { schemas.forget($0) } } }
            }
        }
    }
}
