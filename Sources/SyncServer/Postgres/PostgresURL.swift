import Foundation
import PostgresNIO

/// Parses `postgres://user:pass@host:port/db` into a connection configuration.
enum PostgresURL {
    static func configuration(from text: String) throws -> PostgresConnection.Configuration {
        guard let url = URLComponents(string: text), ["postgres", "postgresql"].contains(url.scheme ?? ""),
              let host = url.host, !host.isEmpty, let user = url.user, !user.isEmpty
        else {
            throw ServerConfigurationError("invalid PostgreSQL URL '\(text)': expected postgres://user:password@host:port/database")
        }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        var configuration = PostgresConnection.Configuration(
            host: host, port: url.port ?? 5432,
            username: user.removingPercentEncoding ?? user,
            password: url.password?.removingPercentEncoding,
            database: database.isEmpty ? nil : database,
            tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}
