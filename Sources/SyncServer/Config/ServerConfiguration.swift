import Foundation
import NIOCore

/// Everything the server is started with.
public struct ServerConfiguration: Sendable {
    /// The `Server` header's value: the product built on SyncServer names itself (nil: none).
    public var serverName: String?
    /// Tables only a space's writers read: to a viewer a query of one is empty, its rows are not
    /// found and its feed is refused (`todo-server` keeps a phone's refused edits so, which a
    /// viewer could never restore).
    public var writersOnlyTables: [String] = []
    /// Tables whose rows fall into groups by a text property (table → property), each group's
    /// newest change kept for an O(1) "did it change?" (`TableService.groupStamp`): `todo-server`
    /// groups tasks by list, so a change in one list leaves every other calendar's token alone.
    public var changeGroups: [String: String] = [:]
    /// Address to listen on.
    public var host = "127.0.0.1"
    /// Port to listen on; 0 picks a free one (printed on start).
    public var port = 8080
    /// A SQLite file path or a `postgres://user:pass@host:port/db` URL.
    public var database: String
    /// PostgreSQL hot standbys of `database` that pulls and item reads may use (`--read-database`).
    public var readDatabases: [String] = []
    /// Seconds a standby may lag behind `database` and still serve reads.
    public var readMaxLag: Double = 10
    /// Rows per page when a query has no `$top`.
    public var pageSize = 50
    /// The largest `$top` accepted.
    public var maxTop = 1000
    /// The largest request body accepted, in bytes.
    public var maxBodyBytes = 1 << 20
    /// When set, tables and columns are never created: unknown ones are 404 / 400.
    public var fixedSchema = false
    /// Whether table requests need an access token.
    public var auth = AuthMode.off
    /// Serve without accounts on a non-loopback address anyway.
    public var allowAnonymous = false
    /// How long an access token stays valid, in seconds.
    public var tokenLifetime: TimeInterval = 30 * 24 * 3600
    /// A file holding the token signing secret (default: one kept in the database).
    public var tokenSecretFile: String?
    /// A PEM certificate (chain) to serve HTTPS with; needs `tlsKeyFile` too.
    public var tlsCertificateFile: String?
    /// The PEM private key of `tlsCertificateFile`.
    public var tlsKeyFile: String?
    /// Seconds between heartbeat comments on open change feeds (keeps proxies from closing them).
    public var feedHeartbeat: Double = 15
    /// Whether `/tables/{table}/changes` serves change feeds (off: it reads an item, as on servers without them).
    public var changeFeed = true
    /// Whether `GET /metrics` serves Prometheus metrics (with accounts, to the operator's scrape token only).
    public var metrics = false
    /// A file holding the scrape token `GET /metrics` asks for when accounts are required
    /// (`Authorization: Bearer <token>`): the metrics count every account's requests, so no
    /// account's own token reads them.
    public var metricsTokenFile: String?
    /// Connections to PostgreSQL. Writes of different accounts run side by side (a clock per
    /// account), so a database whose commits are slow serves more of them with more connections.
    public var databasePoolSize = 8
    /// The most tables each account may create (dynamic schema).
    public var maxTables = SchemaLimits().maxTables
    /// The most columns a table of each account may have, its system columns included (dynamic schema).
    public var maxColumnsPerTable = SchemaLimits().maxColumnsPerTable
    /// The most change feeds one account may hold open in one server process.
    public var maxFeedsPerAccount = 32
    /// The most heavy requests (CalDAV's PROPFIND, REPORT and writes) one account may run at once
    /// in one server process; beyond it 503 with `Retry-After`.
    public var maxHeavyRequestsPerAccount = 4
    /// Seconds a heavy request may compute before it is stopped with 503.
    public var heavyRequestSeconds: Double = 30
    /// Seconds a connection has to send a complete request head, and between parts of a body.
    public var requestTimeout: Double = 10
    /// The VAPID key file (a P-256 private key in PEM, made there the first time); nil keeps
    /// the key in the database, made the first time.
    public var vapidKeyFile: String?
    /// The contact push services are given with every message (`mailto:…` or `https:…`).
    public var vapidSubject: String?
    /// Push resources on loopback, private and link-local addresses, and over plain http, are
    /// allowed (a push service on the LAN, tests); by default only public https ones.
    public var pushAllowLocal = false
    /// The most push subscriptions one account may hold.
    public var maxPushSubscriptionsPerAccount = 100
    /// PBKDF2-SHA256 rounds of each password kept from now on (`--password-rounds`); hashes
    /// already kept are checked with their own.
    public var passwordRounds = ServerConfiguration.defaultPasswordRounds
    /// OWASP's figure for PBKDF2-SHA256, so guessing offline stays slow.
    public static let defaultPasswordRounds = 210_000
    /// RFC 8018's floor (section 4.2): what a test server uses, never less.
    public static let fewestPasswordRounds = 1_000
    /// The PostgreSQL NOTIFY channel that carries committed writes between the server processes
    /// of one database; every process of a deployment must use the same one.
    public var changeChannel = ServerConfiguration.defaultChangeChannel

    /// `changeChannel` unless a product names its own.
    public static let defaultChangeChannel = "sync_server_changes"
    /// The prefix of the server's own metrics (`<namespace>_db_connections` …).
    public var metricsNamespace = ServerConfiguration.defaultMetricsNamespace
    /// `metricsNamespace` unless a product names its own.
    public static let defaultMetricsNamespace = "sync_server"

    /// The deadlines of every connection.
    var connectionTimeouts: ConnectionDeadlines.Timeouts {
        let request = TimeAmount.milliseconds(Int64(requestTimeout * 1000))
        return ConnectionDeadlines.Timeouts(head: request, bodyStall: request)
    }

    /// The ceiling for `maxColumnsPerTable`. Namespaces share physical tables, and one may need
    /// all its columns as text while another needs them as numbers and a third as booleans: a
    /// physical table can reach 3 × (500 − 5) + 6 = 1,491 columns, under PostgreSQL's 1,600.
    public static let columnLimitCeiling = 500

    /// `--auth`: `required` (every table request needs a token) or `off` (loopback only).
    public enum AuthMode: String, Sendable, CaseIterable { case required, off }

    /// Creates a configuration with defaults for everything but the database.
    public init(database: String) {
        self.database = database
    }

    /// True when `database` names a PostgreSQL server.
    public var usesPostgres: Bool { database.hasPrefix("postgres://") || database.hasPrefix("postgresql://") }

    /// True when the server speaks HTTPS itself (both TLS files are set).
    public var usesTLS: Bool { tlsCertificateFile != nil && tlsKeyFile != nil }

    /// `https` when serving TLS, else `http`.
    public var scheme: String { usesTLS ? "https" : "http" }

    /// Throws a `ServerConfigurationError` naming the first bad setting.
    public func validate() throws {
        guard (0...65535).contains(port) else { throw ServerConfigurationError("port must be between 0 and 65535, not \(port)") }
        guard pageSize > 0 else { throw ServerConfigurationError("page size must be positive, not \(pageSize)") }
        guard maxTop > 0 else { throw ServerConfigurationError("max top must be positive, not \(maxTop)") }
        guard pageSize <= maxTop else { throw ServerConfigurationError("page size (\(pageSize)) must not exceed max top (\(maxTop))") }
        guard maxBodyBytes > 0 else { throw ServerConfigurationError("max body must be positive, not \(maxBodyBytes)") }
        guard !database.isEmpty else { throw ServerConfigurationError("database must not be empty") }
        if !readDatabases.isEmpty {
            guard usesPostgres else { throw ServerConfigurationError("--read-database needs a PostgreSQL --database (a SQLite file has no standbys)") }
            for url in readDatabases where !(url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")) {
                throw ServerConfigurationError("--read-database must be a postgres:// URL, not '\(url.prefix(80))'")
            }
        }
        guard readMaxLag > 0, readMaxLag <= 3_600 else { throw ServerConfigurationError("the read lag bound must be between 0 and 3600 seconds, not \(readMaxLag)") }
        guard tokenLifetime > 0 else { throw ServerConfigurationError("token lifetime must be positive") }
        guard feedHeartbeat > 0, feedHeartbeat <= 3_600 else { throw ServerConfigurationError("feed heartbeat must be between 0 and 3600 seconds, not \(feedHeartbeat)") }
        guard (1...500).contains(databasePoolSize) else { throw ServerConfigurationError("the database pool size must be between 1 and 500, not \(databasePoolSize)") }
        guard requestTimeout > 0, requestTimeout <= 3_600 else {
            throw ServerConfigurationError("the request timeout must be between 0 and 3600 seconds, not \(requestTimeout)")
        }
        guard maxHeavyRequestsPerAccount > 0 else { throw ServerConfigurationError("max heavy requests per account must be positive, not \(maxHeavyRequestsPerAccount)") }
        guard heavyRequestSeconds > 0, heavyRequestSeconds <= 3_600 else {
            throw ServerConfigurationError("heavy request timeout must be between 0 and 3600 seconds, not \(heavyRequestSeconds)")
        }
        guard maxFeedsPerAccount > 0 else { throw ServerConfigurationError("max feeds per account must be positive, not \(maxFeedsPerAccount)") }
        guard (Self.fewestPasswordRounds...10_000_000).contains(passwordRounds) else {
            throw ServerConfigurationError("password rounds must be between \(Self.fewestPasswordRounds) and 10000000, not \(passwordRounds)")
        }
        guard maxTables > 0 else { throw ServerConfigurationError("max tables must be positive, not \(maxTables)") }
        guard maxPushSubscriptionsPerAccount >= 0 else {
            throw ServerConfigurationError("max push subscriptions must not be negative, not \(maxPushSubscriptionsPerAccount)")
        }
        if let subject = vapidSubject, !(subject.hasPrefix("mailto:") || subject.hasPrefix("https:")) {
            throw ServerConfigurationError("the VAPID subject must be a mailto: or https: URI, not '\(subject.prefix(80))'")
        }
        let fewestColumns = TableSchema.limitedSystemColumnCount + 1
        guard (fewestColumns...Self.columnLimitCeiling).contains(maxColumnsPerTable) else {
            throw ServerConfigurationError(
                "max columns must be between \(fewestColumns) (the \(fewestColumns - 1) system columns and one property) and \(Self.columnLimitCeiling), not \(maxColumnsPerTable)")
        }
        if (tlsCertificateFile == nil) != (tlsKeyFile == nil) {
            throw ServerConfigurationError("--tls-cert and --tls-key go together: give both, or neither")
        }
        if let tlsCertificateFile, let tlsKeyFile { _ = try ServerTLS(certificateFile: tlsCertificateFile, keyFile: tlsKeyFile) }
        if auth == .off, !allowAnonymous, !Self.isLoopback(host) {
            throw ServerConfigurationError(
                "refusing to serve \(host) with --auth off: anyone who can reach it could read and change every list; use --auth required (or --allow-anonymous if that is really meant)")
        }
    }
}

extension ServerConfiguration {
    /// True for addresses only this machine can reach (a host to listen on, or a peer's address).
    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased()
        return host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.") || host.hasPrefix("::ffff:127.")
    }
}

/// A configuration problem, reported as one line before the server exits.
public struct ServerConfigurationError: Error, CustomStringConvertible, Sendable {
    /// What is wrong, in plain words.
    public var description: String

    /// Creates an error with a message.
    public init(_ description: String) { self.description = description }
}
