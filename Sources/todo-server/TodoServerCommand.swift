import CalDAV
import ArgumentParser
import Foundation
import Logging
import NIOCore
import NIOPosix
import SyncServer

/// `todo-server`: the OfflineTodo sync backend (table protocol over HTTP) and its accounts.
@main
struct TodoServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todo-server",
        abstract: "The OfflineTodo sync server.",
        subcommands: [ServeCommand.self, UsersCommand.self],
        defaultSubcommand: ServeCommand.self)

    /// Installs NIO's event loops as Swift's global executor first, so request handlers run on
    /// the threads that own their sockets instead of hopping to the cooperative pool and back.
    static func main() async {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand { try await asyncCommand.run() } else { try command.run() }
        } catch {
            exit(withError: error)
        }
    }
}

/// Prints one line and exits 1: configuration and account errors never show a stack trace.
func fail(_ error: any Error) -> Never {
    let message = "\(error)".replacingOccurrences(of: "\n", with: " ")
    FileHandle.standardError.write(Data("todo-server: error: \(message)\n".utf8))
    Foundation.exit(1)
}

/// `todo-server serve` (the default): serve the table protocol.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the OfflineTodo table protocol over HTTP or HTTPS (the default).",
        discussion: "Every option can also be set with an environment variable TODO_SERVER_<NAME> (e.g. TODO_SERVER_PORT=9000); flags win.")

    @Option(help: "Address to listen on. [env: TODO_SERVER_HOST]")
    var host: String?

    @Option(help: "Port to listen on; 0 picks a free port. [env: TODO_SERVER_PORT]")
    var port: Int?

    @Option(help: "A SQLite file path, or postgres://user:pass@host:port/db. [env: TODO_SERVER_DATABASE] (default: $XDG_DATA_HOME/offline-todo/server.sqlite)")
    var database: String?

    @Option(name: .customLong("read-database"),
            help: "A PostgreSQL hot standby of --database that pulls and item reads may use (repeatable); writes and anything that must see them stay on --database. [env: TODO_SERVER_READ_DATABASES, comma-separated]")
    var readDatabases: [String] = []

    @Option(help: "Seconds a standby may lag behind --database and still serve reads. [env: TODO_SERVER_READ_MAX_LAG] (default: 10)")
    var readMaxLag: Double?

    @Option(help: "Rows per page when a query has no $top. [env: TODO_SERVER_PAGE_SIZE] (default: 50)")
    var pageSize: Int?

    @Option(help: "Largest $top accepted. [env: TODO_SERVER_MAX_TOP] (default: 1000)")
    var maxTop: Int?

    @Option(help: "Largest request body in bytes. [env: TODO_SERVER_MAX_BODY] (default: 1048576)")
    var maxBody: Int?

    @Flag(help: "Never create tables or columns. [env: TODO_SERVER_FIXED_SCHEMA=true]")
    var fixedSchema = false

    @Option(help: "trace, debug, info, notice, warning, error or critical. [env: TODO_SERVER_LOG_LEVEL] (default: info)")
    var logLevel: String?

    @Option(help: "required: every table request needs an access token; off: anonymous (loopback only). [env: TODO_SERVER_AUTH] (default: off)")
    var auth: String?

    @Flag(help: "Allow --auth off on an address other machines can reach. [env: TODO_SERVER_ALLOW_ANONYMOUS=true]")
    var allowAnonymous = false

    @Option(help: "How long access tokens last: seconds, or a number with s, m, h or d. [env: TODO_SERVER_TOKEN_TTL] (default: 30d)")
    var tokenTtl: String?

    @Option(help: "A file with the token signing secret (default: one made once and kept in the database). [env: TODO_SERVER_TOKEN_SECRET_FILE]")
    var tokenSecretFile: String?

    @Option(help: "Serve HTTPS with this PEM certificate (chain); needs --tls-key. [env: TODO_SERVER_TLS_CERT] (default: plain HTTP)")
    var tlsCert: String?

    @Option(help: "The PEM private key of --tls-cert (unencrypted). [env: TODO_SERVER_TLS_KEY]")
    var tlsKey: String?

    @Option(help: "Most tables each account may create (counted per account, never across accounts); beyond it a new table is refused with 400. [env: TODO_SERVER_MAX_TABLES] (default: 100)")
    var maxTables: Int?

    @Option(help: "Most columns each account's table may have, its 5 system columns included (counted per account); beyond it 400. [env: TODO_SERVER_MAX_COLUMNS] (default: 200, at most 500)")
    var maxColumns: Int?

    @Option(help: "Most change feeds one account may hold open on this process; beyond it 429. [env: TODO_SERVER_MAX_FEEDS_PER_ACCOUNT] (default: 32)")
    var maxFeedsPerAccount: Int?

    @Option(help: "Seconds a connection has to send a whole request head (from when it opened, or from its previous response), and between the parts of a body; then it is closed. [env: TODO_SERVER_REQUEST_TIMEOUT] (default: 10)")
    var requestTimeout: Double?

    @Option(help: "Seconds between heartbeats on open change feeds (/tables/{table}/changes). [env: TODO_SERVER_FEED_HEARTBEAT] (default: 15)")
    var feedHeartbeat: Double?

    @Flag(help: "Serve no change feeds: /tables/{table}/changes then reads an item, as on servers without live sync (clients poll). [env: TODO_SERVER_NO_CHANGE_FEED]")
    var noChangeFeed = false

    @Flag(help: "Serve GET /metrics in Prometheus format (with --auth required, to the token in --metrics-token-file only). [env: TODO_SERVER_METRICS=true]")
    var metrics = false

    @Option(help: "A file holding the token a scrape of GET /metrics sends (Authorization: Bearer …) when --auth required; no account's token reads the metrics, which count every account's requests. [env: TODO_SERVER_METRICS_TOKEN_FILE]")
    var metricsTokenFile: String?

    @Option(help: "Connections to PostgreSQL; more serve more accounts writing at once when commits are slow. [env: TODO_SERVER_DATABASE_POOL_SIZE] (default: 8)")
    var databasePoolSize: Int?

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

    /// Flags first, then `TODO_SERVER_*` variables, then defaults.
    func makeConfiguration(environment env: [String: String]) throws -> (ServerConfiguration, Logger.Level) {
        func int(_ flag: Int?, _ name: String) throws -> Int? {
            if let flag { return flag }
            guard let text = env[name], !text.isEmpty else { return nil }
            guard let value = Int(text) else { throw ServerConfigurationError("\(name) must be a whole number, not '\(text)'") }
            return value
        }
        var configuration = ServerConfiguration()
        if let value = database ?? env["TODO_SERVER_DATABASE"], !value.isEmpty { configuration.database = value }
        configuration.readDatabases = !readDatabases.isEmpty ? readDatabases
            : (env["TODO_SERVER_READ_DATABASES"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if let value = readMaxLag {
            configuration.readMaxLag = value
        } else if let text = env["TODO_SERVER_READ_MAX_LAG"], !text.isEmpty {
            guard let value = Double(text) else { throw ServerConfigurationError("TODO_SERVER_READ_MAX_LAG must be a number of seconds, not '\(text)'") }
            configuration.readMaxLag = value
        }
        if let value = host ?? env["TODO_SERVER_HOST"], !value.isEmpty { configuration.host = value }
        if let value = try int(port, "TODO_SERVER_PORT") { configuration.port = value }
        if let value = try int(pageSize, "TODO_SERVER_PAGE_SIZE") { configuration.pageSize = value }
        if let value = try int(maxTop, "TODO_SERVER_MAX_TOP") { configuration.maxTop = value }
        if let value = try int(maxBody, "TODO_SERVER_MAX_BODY") { configuration.maxBodyBytes = value }
        configuration.fixedSchema = try fixedSchema || Self.bool(env, "TODO_SERVER_FIXED_SCHEMA")
        if let text = auth ?? env["TODO_SERVER_AUTH"], !text.isEmpty {
            guard let mode = ServerConfiguration.AuthMode(rawValue: text.lowercased()) else {
                throw ServerConfigurationError("--auth must be required or off, not '\(text)'")
            }
            configuration.auth = mode
        }
        configuration.allowAnonymous = try allowAnonymous || Self.bool(env, "TODO_SERVER_ALLOW_ANONYMOUS")
        if let text = tokenTtl ?? env["TODO_SERVER_TOKEN_TTL"], !text.isEmpty {
            guard let seconds = Self.duration(text) else {
                throw ServerConfigurationError("--token-ttl must be a duration such as 3600, 90m, 12h or 30d, not '\(text)'")
            }
            configuration.tokenLifetime = seconds
        }
        if let file = tokenSecretFile ?? env["TODO_SERVER_TOKEN_SECRET_FILE"], !file.isEmpty { configuration.tokenSecretFile = file }
        if let file = tlsCert ?? env["TODO_SERVER_TLS_CERT"], !file.isEmpty { configuration.tlsCertificateFile = file }
        if let file = tlsKey ?? env["TODO_SERVER_TLS_KEY"], !file.isEmpty { configuration.tlsKeyFile = file }
        if let value = try int(maxTables, "TODO_SERVER_MAX_TABLES") { configuration.maxTables = value }
        if let value = try int(maxColumns, "TODO_SERVER_MAX_COLUMNS") { configuration.maxColumnsPerTable = value }
        if let value = try int(maxFeedsPerAccount, "TODO_SERVER_MAX_FEEDS_PER_ACCOUNT") { configuration.maxFeedsPerAccount = value }
        if let value = requestTimeout {
            configuration.requestTimeout = value
        } else if let text = env["TODO_SERVER_REQUEST_TIMEOUT"], !text.isEmpty {
            guard let value = Double(text) else { throw ServerConfigurationError("TODO_SERVER_REQUEST_TIMEOUT must be a number of seconds, not '\(text)'") }
            configuration.requestTimeout = value
        }
        if let value = feedHeartbeat {
            configuration.feedHeartbeat = value
        } else if let text = env["TODO_SERVER_FEED_HEARTBEAT"], !text.isEmpty {
            guard let value = Double(text) else { throw ServerConfigurationError("TODO_SERVER_FEED_HEARTBEAT must be a number of seconds, not '\(text)'") }
            configuration.feedHeartbeat = value
        }
        configuration.changeFeed = !(try noChangeFeed || Self.bool(env, "TODO_SERVER_NO_CHANGE_FEED"))
        configuration.metrics = try metrics || Self.bool(env, "TODO_SERVER_METRICS")
        if let file = metricsTokenFile ?? env["TODO_SERVER_METRICS_TOKEN_FILE"], !file.isEmpty { configuration.metricsTokenFile = file }
        if let value = try int(databasePoolSize, "TODO_SERVER_DATABASE_POOL_SIZE") { configuration.databasePoolSize = value }
        let levelText = logLevel ?? env["TODO_SERVER_LOG_LEVEL"] ?? "info"
        guard let level = Logger.Level(rawValue: levelText.lowercased()) else {
            throw ServerConfigurationError("log level must be one of trace, debug, info, notice, warning, error, critical; not '\(levelText)'")
        }
        try configuration.validate()
        return (configuration, level)
    }

    /// A true/false environment variable (unset is false).
    static func bool(_ env: [String: String], _ name: String) throws -> Bool {
        guard let text = env[name], !text.isEmpty else { return false }
        guard let value = ["true": true, "1": true, "false": false, "0": false][text.lowercased()] else {
            throw ServerConfigurationError("\(name) must be true or false, not '\(text)'")
        }
        return value
    }

    /// Seconds from `3600`, `45s`, `90m`, `12h` or `30d`; nil for anything else.
    static func duration(_ text: String) -> TimeInterval? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        var number = text.trimmingCharacters(in: .whitespaces).lowercased()
        var unit = 1.0
        if let last = number.last, let scale = units[last] {
            unit = scale
            number.removeLast()
        }
        guard let value = Double(number), value > 0, value.isFinite else { return nil }
        return value * unit
    }
}
