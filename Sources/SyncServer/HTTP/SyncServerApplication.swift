import Foundation
import Hummingbird
import Logging
import NIOCore

/// Opens the configured database and serves the table protocol until SIGINT or SIGTERM.
public enum SyncServerApplication {
    /// Runs the server; `onListening` gets the bound port once requests are accepted.
    public static func run(
        _ configuration: ServerConfiguration, logger: Logger, onListening: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws {
        try configuration.validate()
        let database = try await openDatabase(configuration, logger: logger)
        let service = TableService(
            database: database, fixedSchema: configuration.fixedSchema,
            limits: QueryLimits(pageSize: configuration.pageSize, maxTop: configuration.maxTop),
            // One process owns a SQLite file; PostgreSQL may be shared, so look again soon.
            schemaCacheTTL: configuration.usesPostgres ? 1 : .infinity)
        do {
            try await service.bootstrap()
        } catch {
            await database.close()
            throw ServerConfigurationError("cannot prepare the database: \(error)")
        }

        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: TableCORS.middleware())
        router.add(middleware: CORSExposeHeadersMiddleware())
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: LogRequestsMiddleware(.info))
        router.add(middleware: APIVersionMiddleware())
        TableRoutes(service: service, maxBodyBytes: configuration.maxBodyBytes).register(on: router)

        let app = Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "todo-server"),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
        do {
            try await app.runService()
        } catch let error as IOError {
            await database.close()
            throw ServerConfigurationError("cannot listen on \(configuration.host):\(configuration.port): \(error.description)")
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }

    private static func openDatabase(_ configuration: ServerConfiguration, logger: Logger) async throws -> any SQLDatabase {
        if configuration.usesPostgres {
            do {
                return try await PostgresDatabase(url: configuration.database, logger: logger)
            } catch let error as ServerConfigurationError {
                throw error
            } catch {
                throw ServerConfigurationError("cannot connect to PostgreSQL at \(redacted(configuration.database)): \(String(reflecting: error))")
            }
        }
        do {
            return try SQLiteDatabase(path: configuration.database)
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
