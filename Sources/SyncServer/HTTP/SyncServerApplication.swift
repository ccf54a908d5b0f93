import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import ServiceLifecycle
import WebPush

/// Opens the configured database and serves the table protocol until SIGINT or SIGTERM.
public enum SyncServerApplication {
    /// Runs the server; `onListening` gets the bound port once requests are accepted.
    /// `faces`: other protocols served on the same port (todo-server's CalDAV).
    public static func run(
        _ configuration: ServerConfiguration, faces: [any ServerFace] = [], logger: Logger, onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws {
        // Every open change feed holds a socket: take every file the system allows, and say how
        // many connections that leaves once listening (a start-up error stays one line).
        let files = OpenFileLimit.raise()
        let server = try await build(configuration, faces: faces, logger: logger) { port in
            logger.log(level: files < 10_000 + OpenFileLimit.reserved ? .warning : .info,
                       "the open-file limit allows about \(max(0, files - OpenFileLimit.reserved)) connections, change feeds included (raise the hard limit for more: ulimit -Hn, systemd's LimitNOFILE=)",
                       metadata: ["open_files": "\(files)"])
            onListening(port)
        }
        let group = ServiceGroup(configuration: .init(services: [server.application, FeedShutdown(hub: server.hub)],
                                                      gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch let error as IOError {
            await server.close()
            throw ServerConfigurationError("cannot listen on \(configuration.host):\(configuration.port): \(error.description)")
        } catch {
            await server.close()
            throw error
        }
        await server.close()
    }

    /// A server ready to run: the application (routes, middleware, services) over its open
    /// database. `run` serves it on a socket; tests drive it in process (Hummingbird's router
    /// test client), the same application without a socket.
    struct Built: Sendable {
        let application: Application<RouterResponder<TableRequestContext>>
        let database: any SQLDatabase
        let service: TableService
        let users: UserStore
        /// This process's change feeds.
        let hub: ChangeHub

        /// Releases the database.
        func close() async { await database.close() }
    }

    /// Opens the database (migrating it), and builds the application. `now` is the clock tokens
    /// are issued and checked by (tests move it instead of sleeping).
    static func build(
        _ configuration: ServerConfiguration, faces: [any ServerFace] = [], logger: Logger, onListening: @escaping @Sendable (Int) -> Void = { _ in },
        now: @escaping @Sendable () -> Date = Date.init
    ) async throws -> Built {
        try configuration.validate()
        let hub = ChangeHub()
        let database = try await openDatabase(configuration, hub: hub, logger: logger)
        let service = TableService(
            database: database, fixedSchema: configuration.fixedSchema,
            limits: QueryLimits(pageSize: configuration.pageSize, maxTop: configuration.maxTop),
            schemaLimits: SchemaLimits(maxTables: configuration.maxTables, maxColumnsPerTable: configuration.maxColumnsPerTable),
            // One process owns a SQLite file. PostgreSQL may be shared: other processes announce their
            // schema changes (see ChangeFeedService), and the short TTL backs that up.
            schemaCacheTTL: configuration.usesPostgres ? 1 : .infinity, changeGroups: configuration.changeGroups)
        let users = UserStore(database: database, passwordRounds: configuration.passwordRounds)
        let authenticator: Authenticator
        let push: PushService
        do {
            try await service.bootstrap()
            let tokens = try await TokenService.open(
                users: users, lifetime: configuration.tokenLifetime, secretFile: configuration.tokenSecretFile, now: now)
            authenticator = Authenticator(users: users, tokens: tokens, required: configuration.auth == .required)
            push = PushService(subscriptions: PushSubscriptions(database: database),
                               vapid: try await PushService.vapidKey(file: configuration.vapidKeyFile, subject: configuration.vapidSubject, users: users),
                               policy: PushResourcePolicy(allowLocal: configuration.pushAllowLocal),
                               maximumPerAccount: configuration.maxPushSubscriptionsPerAccount)
        } catch let error as ServerConfigurationError {
            await database.close()
            throw error
        } catch {
            await database.close()
            throw ServerConfigurationError("cannot prepare the database: \(error)")
        }

        let router = Router(context: TableRequestContext.self)
        // Outermost, so it counts the status the client gets (after ErrorMiddleware's mapping).
        if configuration.metrics {
            _ = ServerMetrics.registry  // bootstraps swift-metrics before the middleware makes (and caches) its first counter
            router.add(middleware: MetricsMiddleware())
        }
        router.add(middleware: TableCORS.middleware())
        router.add(middleware: CORSExposeHeadersMiddleware())
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: LogRequestsMiddleware(.info))
        router.add(middleware: APIVersionMiddleware())
        AuthRoutes(authenticator: authenticator, maxBodyBytes: configuration.maxBodyBytes).register(on: router)
        AppPasswordRoutes(authenticator: authenticator, maxBodyBytes: configuration.maxBodyBytes).register(on: router)
        if configuration.metrics {
            let access: MetricsAccess
            do {
                access = try MetricsAccess(accountsRequired: configuration.auth == .required, tokenFile: configuration.metricsTokenFile)
            } catch {
                await database.close()
                throw error
            }
            if case .noScrapeToken = access {
                logger.warning("GET /metrics answers 403 until a scrape token is set: --metrics-token-file (the metrics count every account's use, so no account's token reads them)")
            }
            MetricsRoute(database: database, hub: hub, access: access, authenticator: authenticator, namespace: configuration.metricsNamespace)
                .register(on: router)
        }
        let resolver = NamespaceResolver(authenticator: authenticator, spaces: SpaceStore(database: database))
        SpaceRoutes(spaces: resolver.spaces, resolver: resolver, hub: hub, database: database, maxBodyBytes: configuration.maxBodyBytes)
            .register(on: router)
        let feed = configuration.changeFeed
            ? ChangeFeedRoute(service: service, hub: hub, maxFeedsPerAccount: configuration.maxFeedsPerAccount,
                              writersOnly: Set(configuration.writersOnlyTables.map { $0.lowercased() })) : nil
        TableRoutes(service: service, authenticator: authenticator, resolver: resolver, maxBodyBytes: configuration.maxBodyBytes,
                    scheme: configuration.scheme, feed: feed, writersOnly: Set(configuration.writersOnlyTables.map { $0.lowercased() }))
            .register(on: router)
        let heavyWork = HeavyWork(perAccount: configuration.maxHeavyRequestsPerAccount, deadline: .milliseconds(Int64(configuration.heavyRequestSeconds * 1_000)))
        let services = ServerServices(tables: service, authenticator: authenticator, spaces: resolver.spaces, maxBodyBytes: configuration.maxBodyBytes,
                                      heavyWork: heavyWork, push: push, scheme: configuration.scheme)
        for face in faces { face.register(on: router, services: services) }
        let sender = PushSender(subscriptions: push.subscriptions, delivery: PushDelivery(vapid: push.vapid, policy: push.policy),
                                formats: faces.reduce(into: [:]) { formats, face in formats.merge(face.pushMessages) { first, _ in first } },
                                logger: logger)
        if !sender.formats.isEmpty { hub.observe { sender.noticed($0) } }

        let server: HTTPServerBuilder
        do {
            server = try serverBuilder(configuration)
        } catch {
            await database.close()
            throw error
        }
        let application = Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: configuration.serverName),
            services: ([ChangeFeedService(hub: hub, database: database, schemas: service.schemas, heartbeat: configuration.feedHeartbeat)] as [any Service])
                + (sender.formats.isEmpty ? [] : [sender]),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
        return Built(application: application, database: database, service: service, users: users, hub: hub)
    }

    /// Plain HTTP/1.1, or HTTP/1.1 inside TLS when both TLS files are set; every connection bounded
    /// by `ConnectionDeadlines`.
    private static func serverBuilder(_ configuration: ServerConfiguration) throws -> HTTPServerBuilder {
        let timeouts = configuration.connectionTimeouts
        let http1 = HTTPServerBuilder.http1(configuration: .init(additionalChannelHandlers: [ConnectionDeadlines(timeouts)]))
        guard let certificate = configuration.tlsCertificateFile, let key = configuration.tlsKeyFile else { return http1 }
        return try .tls(http1, tlsConfiguration: ServerTLS(certificateFile: certificate, keyFile: key).configuration)
    }

    /// Opens the configured database for account commands (`todo-server users …`).
    public static func openUsers(_ configuration: ServerConfiguration, logger: Logger) async throws -> (UserStore, close: @Sendable () async -> Void) {
        let database = try await openDatabase(configuration, hub: ChangeHub(), logger: logger)
        let users = UserStore(database: database, passwordRounds: configuration.passwordRounds)
        do {
            try await users.bootstrap()
        } catch {
            await database.close()
            throw ServerConfigurationError("cannot prepare the database: \(error)")
        }
        return (users, { await database.close() })
    }

    /// Opens the store; committed writes reach `hub` (on PostgreSQL through NOTIFY, from every process).
    private static func openDatabase(_ configuration: ServerConfiguration, hub: ChangeHub, logger: Logger) async throws -> any SQLDatabase {
        if configuration.usesPostgres {
            do {
                return try await PostgresDatabase(url: configuration.database, poolSize: configuration.databasePoolSize,
                                                  readDatabases: configuration.readDatabases, maxReadLag: configuration.readMaxLag,
                                                  changeChannel: configuration.changeChannel, logger: logger)
            } catch let error as ServerConfigurationError {
                throw error
            } catch {
                throw ServerConfigurationError("cannot connect to PostgreSQL at \(redacted(configuration.database)): \(String(reflecting: error))")
            }
        }
        do {
            return try SQLiteDatabase(path: configuration.database, changes: hub)
        } catch {
            throw ServerConfigurationError("cannot open SQLite database '\(configuration.database)': \(error)")
        }
    }

    /// The URL without its password, for messages.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}
