import ArgumentParser
import CalDAV
import Foundation
import Logging
import SyncServer

/// `todo-server serve` (the default): serve the table protocol.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the OfflineTodo table protocol over HTTP or HTTPS (the default).",
        discussion: "Every option can also be set with an environment variable TODO_SERVER_<NAME> (e.g. TODO_SERVER_PORT=9000); flags win.")

    /// The defaults the help shows: the configuration's own, never a second copy.
    private static let defaults = ServerConfiguration(database: ServerEnvironment.defaultDatabaseDescription)
    private static func help(_ text: String, _ option: String, default value: (any CustomStringConvertible)? = nil, variable: String? = nil) -> ArgumentHelp {
        // Whole seconds read as the flag is written: 10, not 10.0.
        let shown = (value as? Double).flatMap { $0 == $0.rounded() ? String(Int($0)) : nil } ?? value.map { "\($0)" }
        return ServerEnvironment.help(text, option, default: shown, variable: variable)
    }

    @Option(help: help("Address to listen on.", "host", default: defaults.host))
    var host: String?

    @Option(help: help("Port to listen on; 0 picks a free port.", "port", default: defaults.port))
    var port: Int?

    @Option(help: help("A SQLite file path, or postgres://user:pass@host:port/db.", "database", default: defaults.database))
    var database: String?

    @Option(name: .customLong("read-database"),
            help: help("A PostgreSQL hot standby of --database that pulls and item reads may use (repeatable); writes and anything that must see them stay on --database.",
                       "read-databases", variable: ServerEnvironment.name("read-databases") + ", comma-separated"))
    var readDatabases: [String] = []

    @Option(help: help("Seconds a standby may lag behind --database and still serve reads.", "read-max-lag", default: defaults.readMaxLag))
    var readMaxLag: Double?

    @Option(help: help("Rows per page when a query has no $top.", "page-size", default: defaults.pageSize))
    var pageSize: Int?

    @Option(help: help("Largest $top accepted.", "max-top", default: defaults.maxTop))
    var maxTop: Int?

    @Option(help: help("Largest request body in bytes.", "max-body", default: defaults.maxBodyBytes))
    var maxBody: Int?

    @Flag(help: help("Never create tables or columns.", "fixed-schema", variable: ServerEnvironment.name("fixed-schema") + "=true"))
    var fixedSchema = false

    @Option(help: help("trace, debug, info, notice, warning, error or critical.", "log-level", default: Logger.Level.info.rawValue))
    var logLevel: String?

    @Option(help: help("required: every table request needs an access token; off: anonymous (loopback only).", "auth", default: defaults.auth.rawValue))
    var auth: String?

    @Flag(help: help("Allow --auth off on an address other machines can reach.", "allow-anonymous", variable: ServerEnvironment.name("allow-anonymous") + "=true"))
    var allowAnonymous = false

    @Option(help: help("How long access tokens last: seconds, or a number with s, m, h or d.", "token-ttl", default: "\(Int(defaults.tokenLifetime / 86_400))d"))
    var tokenTtl: String?

    @Option(help: help("A file with the token signing secret (default: one made once and kept in the database).", "token-secret-file"))
    var tokenSecretFile: String?

    @Option(help: help("Serve HTTPS with this PEM certificate (chain); needs --tls-key.", "tls-cert", default: "plain HTTP"))
    var tlsCert: String?

    @Option(help: help("The PEM private key of --tls-cert (unencrypted).", "tls-key"))
    var tlsKey: String?

    @Option(help: help("Most tables each account may create (counted per account, never across accounts); beyond it a new table is refused with 400.", "max-tables",
                       default: defaults.maxTables))
    var maxTables: Int?

    @Option(help: help("Most columns each account's table may have, its \(TableSchema.limitedSystemColumnCount) system columns included (counted per account); beyond it 400.",
                       "max-columns", default: "\(defaults.maxColumnsPerTable), at most \(ServerConfiguration.columnLimitCeiling)"))
    var maxColumns: Int?

    @Option(help: help("Most change feeds one account may hold open on this process; beyond it 429.", "max-feeds-per-account", default: defaults.maxFeedsPerAccount))
    var maxFeedsPerAccount: Int?

    @Option(help: help("Most large requests (CalDAV PROPFIND, REPORT and writes) one account may run at once on this process; beyond it 503 with Retry-After.",
                       "max-heavy-requests-per-account", default: defaults.maxHeavyRequestsPerAccount))
    var maxHeavyRequestsPerAccount: Int?

    @Option(help: help("Seconds a large request may compute before it is stopped with 503.", "heavy-request-timeout", default: defaults.heavyRequestSeconds))
    var heavyRequestTimeout: Double?

    @Option(help: help("Seconds a connection has to send a whole request head (from when it opened, or from its previous response), and between the parts of a body; then it is closed.",
                       "request-timeout", default: defaults.requestTimeout))
    var requestTimeout: Double?

    @Option(help: help("Seconds between heartbeats on open change feeds (/tables/{table}/changes).", "feed-heartbeat", default: defaults.feedHeartbeat))
    var feedHeartbeat: Double?

    @Flag(help: help("Serve no change feeds: /tables/{table}/changes then reads an item, as on servers without live sync (clients poll).", "no-change-feed"))
    var noChangeFeed = false

    @Flag(help: help("Serve GET /metrics in Prometheus format (with --auth required, to the token in --metrics-token-file only).", "metrics",
                     variable: ServerEnvironment.name("metrics") + "=true"))
    var metrics = false

    @Option(help: help("A file holding the token a scrape of GET /metrics sends (Authorization: Bearer …) when --auth required; no account's token reads the metrics, which count every account's requests.",
                       "metrics-token-file"))
    var metricsTokenFile: String?

    @Option(help: help("Connections to PostgreSQL; more serve more accounts writing at once when commits are slow.", "database-pool-size", default: defaults.databasePoolSize))
    var databasePoolSize: Int?

    @Option(help: help("The VAPID key that signs WebDAV-Push messages: a P-256 private key in PEM, made in this file the first time (default: one made once and kept in the database, so every process signs alike).",
                       "vapid-key-file"))
    var vapidKeyFile: String?

    @Option(help: help("The contact push services are given with each message: mailto:you@example.org or an https: URL.", "vapid-subject"))
    var vapidSubject: String?

    @Flag(help: help("Allow push resources on loopback, private and link-local addresses, and plain http (a push service on your own network; tests).",
                     "push-allow-local", variable: ServerEnvironment.name("push-allow-local") + "=true"))
    var pushAllowLocal = false

    @Option(help: help("Most WebDAV-Push subscriptions one account may hold; beyond it 403.", "max-push-subscriptions", default: defaults.maxPushSubscriptionsPerAccount))
    var maxPushSubscriptions: Int?

    @Option(help: help("PBKDF2-SHA256 rounds of each password kept from now on (at least \(ServerConfiguration.fewestPasswordRounds)); passwords already kept keep theirs.",
                       "password-rounds", default: defaults.passwordRounds))
    var passwordRounds: Int?

    func run() async throws {
        let configuration: ServerConfiguration
        let level: Logger.Level
        do {
            (configuration, level) = try makeConfiguration(environment: ProcessInfo.processInfo.environment)
        } catch {
            fail(error)
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "todo-server")
        do {
            try await SyncServerApplication.run(configuration, faces: [CalDAVFace()], logger: logger) { port in
                let store = configuration.usesPostgres ? "postgresql" : "sqlite \(configuration.database)"
                FileHandle.standardOutput.write(Data("todo-server listening on \(configuration.scheme)://\(configuration.host):\(port) (\(store))\n".utf8))
            }
        } catch {
            fail(error)
        }
    }

    /// Flags first, then `TODO_SERVER_*` variables, then defaults: one line per option.
    func makeConfiguration(environment: [String: String]) throws -> (ServerConfiguration, Logger.Level) {
        let env = ServerEnvironment(variables: environment)
        var c = ServerConfiguration(database: env.text(database, "database") ?? ServerEnvironment.defaultDatabasePath(environment))
        c.serverName = "todo-server"
        c.writersOnlyTables = CalDAVFace.writersOnlyTables
        c.changeGroups = CalDAVFace.changeGroups
        c.changeChannel = ServerEnvironment.changeChannel
        c.metricsNamespace = ServerEnvironment.metricsNamespace
        c.readDatabases = env.list(readDatabases, ServerEnvironment.name("read-databases"))
        if let value = try env.seconds(readMaxLag, "read-max-lag") { c.readMaxLag = value }
        if let value = env.text(host, "host") { c.host = value }
        if let value = try env.int(port, "port") { c.port = value }
        if let value = try env.int(pageSize, "page-size") { c.pageSize = value }
        if let value = try env.int(maxTop, "max-top") { c.maxTop = value }
        if let value = try env.int(maxBody, "max-body") { c.maxBodyBytes = value }
        c.fixedSchema = try env.bool(fixedSchema, "fixed-schema")
        if let text = env.text(auth, "auth") {
            guard let mode = ServerConfiguration.AuthMode(rawValue: text.lowercased()) else {
                throw ServerConfigurationError("--auth must be required or off, not '\(text)'")
            }
            c.auth = mode
        }
        c.allowAnonymous = try env.bool(allowAnonymous, "allow-anonymous")
        if let value = try env.duration(tokenTtl, "token-ttl") { c.tokenLifetime = value }
        c.tokenSecretFile = env.text(tokenSecretFile, "token-secret-file")
        c.tlsCertificateFile = env.text(tlsCert, "tls-cert")
        c.tlsKeyFile = env.text(tlsKey, "tls-key")
        if let value = try env.int(maxTables, "max-tables") { c.maxTables = value }
        if let value = try env.int(maxColumns, "max-columns") { c.maxColumnsPerTable = value }
        if let value = try env.int(maxFeedsPerAccount, "max-feeds-per-account") { c.maxFeedsPerAccount = value }
        if let value = try env.seconds(requestTimeout, "request-timeout") { c.requestTimeout = value }
        if let value = try env.int(maxHeavyRequestsPerAccount, "max-heavy-requests-per-account") { c.maxHeavyRequestsPerAccount = value }
        if let value = try env.seconds(heavyRequestTimeout, "heavy-request-timeout") { c.heavyRequestSeconds = value }
        if let value = try env.seconds(feedHeartbeat, "feed-heartbeat") { c.feedHeartbeat = value }
        c.changeFeed = !(try env.bool(noChangeFeed, "no-change-feed"))
        c.metrics = try env.bool(metrics, "metrics")
        c.metricsTokenFile = env.text(metricsTokenFile, "metrics-token-file")
        if let value = try env.int(databasePoolSize, "database-pool-size") { c.databasePoolSize = value }
        c.vapidKeyFile = env.text(vapidKeyFile, "vapid-key-file")
        c.vapidSubject = env.text(vapidSubject, "vapid-subject")
        c.pushAllowLocal = try env.bool(pushAllowLocal, "push-allow-local")
        if let value = try env.int(maxPushSubscriptions, "max-push-subscriptions") { c.maxPushSubscriptionsPerAccount = value }
        if let value = try env.int(passwordRounds, "password-rounds") { c.passwordRounds = value }
        let levelText = env.text(logLevel, "log-level") ?? Logger.Level.info.rawValue
        guard let level = Logger.Level(rawValue: levelText.lowercased()) else {
            throw ServerConfigurationError("log level must be one of trace, debug, info, notice, warning, error, critical; not '\(levelText)'")
        }
        try c.validate()
        return (c, level)
    }
}
