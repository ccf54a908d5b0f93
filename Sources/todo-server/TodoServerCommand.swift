import ArgumentParser
import Foundation
import Logging
import NIOCore
import NIOPosix
import SyncServer

/// `todo-server`: the OfflineTodo sync backend (table protocol over HTTP).
@main
struct TodoServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "todo-server",
        abstract: "Serve the OfflineTodo table protocol over HTTP.",
        discussion: "Every option can also be set with an environment variable TODO_SERVER_<NAME> (e.g. TODO_SERVER_PORT=9000); flags win.")

    @Option(help: "Address to listen on. [env: TODO_SERVER_HOST]")
    var host: String?

    @Option(help: "Port to listen on; 0 picks a free port. [env: TODO_SERVER_PORT]")
    var port: Int?

    @Option(help: "A SQLite file path, or postgres://user:pass@host:port/db. [env: TODO_SERVER_DATABASE] (default: $XDG_DATA_HOME/offline-todo/server.sqlite)")
    var database: String?

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
            try await SyncServerApplication.run(configuration, logger: logger) { port in
                let store = configuration.usesPostgres ? "postgresql" : "sqlite \(configuration.database)"
                FileHandle.standardOutput.write(Data("todo-server listening on http://\(configuration.host):\(port) (\(store))\n".utf8))
            }
        } catch {
            fail(error)
        }
    }

    private func fail(_ error: any Error) -> Never {
        let message = "\(error)".replacingOccurrences(of: "\n", with: " ")
        FileHandle.standardError.write(Data("todo-server: error: \(message)\n".utf8))
        Foundation.exit(1)
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
        if let value = host ?? env["TODO_SERVER_HOST"], !value.isEmpty { configuration.host = value }
        if let value = try int(port, "TODO_SERVER_PORT") { configuration.port = value }
        if let value = try int(pageSize, "TODO_SERVER_PAGE_SIZE") { configuration.pageSize = value }
        if let value = try int(maxTop, "TODO_SERVER_MAX_TOP") { configuration.maxTop = value }
        if let value = try int(maxBody, "TODO_SERVER_MAX_BODY") { configuration.maxBodyBytes = value }
        if fixedSchema {
            configuration.fixedSchema = true
        } else if let text = env["TODO_SERVER_FIXED_SCHEMA"], !text.isEmpty {
            guard let value = ["true": true, "1": true, "false": false, "0": false][text.lowercased()] else {
                throw ServerConfigurationError("TODO_SERVER_FIXED_SCHEMA must be true or false, not '\(text)'")
            }
            configuration.fixedSchema = value
        }
        let levelText = logLevel ?? env["TODO_SERVER_LOG_LEVEL"] ?? "info"
        guard let level = Logger.Level(rawValue: levelText.lowercased()) else {
            throw ServerConfigurationError("log level must be one of trace, debug, info, notice, warning, error, critical; not '\(levelText)'")
        }
        try configuration.validate()
        return (configuration, level)
    }
}
