import ServerTestSupport
import Foundation
import Testing

/// Bad configuration ends the process with one clear line and a non-zero status.
@Suite struct ConfigurationTests {
    @Test func portInUseIsAOneLineError() async throws {
        let dir = try TempDir.make()
        let first = try await ServerProcess.start(arguments: ["--database", dir.appendingPathComponent("a.sqlite").path])
        defer { first.stop() }
        let (status, stderr) = try await ServerProcess.runToExit(arguments: [
            "--port", "\(first.port)", "--database", dir.appendingPathComponent("b.sqlite").path,
        ])
        #expect(status != 0)
        #expect(stderr.contains("todo-server: error: cannot listen on 127.0.0.1:\(first.port)"))
    }

    @Test func unwritableDatabasePathIsAnError() async throws {
        let (status, stderr) = try await ServerProcess.runToExit(arguments: ["--port", "0", "--database", "/proc/nope/server.sqlite"])
        #expect(status != 0)
        #expect(stderr.hasPrefix("todo-server: error: cannot open SQLite database"))
    }

    @Test func unreachablePostgresIsAnError() async throws {
        let (status, stderr) = try await ServerProcess.runToExit(arguments: [
            "--port", "0", "--database", "postgres://nobody@127.0.0.1:1/none",
        ])
        #expect(status != 0)
        #expect(stderr.hasPrefix("todo-server: error: cannot connect to PostgreSQL"))
    }

    @Test func malformedEnvironmentVariableIsAnError() async throws {
        let (status, stderr) = try await ServerProcess.runToExit(arguments: [], environment: ["TODO_SERVER_PORT": "eighty"])
        #expect(status != 0)
        #expect(stderr.contains("TODO_SERVER_PORT must be a whole number"))
    }

    @Test func pageSizeAboveMaxTopIsAnError() async throws {
        let (status, stderr) = try await ServerProcess.runToExit(arguments: ["--page-size", "2000", "--max-top", "1000"])
        #expect(status != 0)
        #expect(stderr.contains("page size"))
    }

    @Test func environmentVariablesConfigureTheServer() async throws {
        let dir = try TempDir.make()
        let server = try await ServerProcess.start(arguments: [], environment: [
            "TODO_SERVER_DATABASE": dir.appendingPathComponent("env.sqlite").path, "TODO_SERVER_PAGE_SIZE": "2",
        ])
        defer { server.stop() }
        let c = TableClient(server)
        try await c.insertAll("items", [["id": "a"], ["id": "b"], ["id": "c"]])
        #expect(try await c.get("tables/items").ids == ["a", "b"])
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("env.sqlite").path))
    }

    @Test func connectionLimitsOutOfRangeAreErrors() async throws {
        #expect(try await ConfigurationTests.oneLineError(["--request-timeout", "1e30"]).hasPrefix("todo-server: error: the request timeout must be between"))
        #expect(try await ConfigurationTests.oneLineError(["--request-timeout", "0"]).hasPrefix("todo-server: error: the request timeout must be between"))
        #expect(try await ConfigurationTests.oneLineError(["--max-feeds-per-account", "0"]).hasPrefix("todo-server: error: max feeds per account"))
        #expect(try await ConfigurationTests.oneLineError(["--database-pool-size", "0"]).hasPrefix("todo-server: error: the database pool size"))
    }

    @Test func schemaLimitsOutOfRangeAreErrors() async throws {
        #expect(try await ConfigurationTests.oneLineError(["--max-tables", "0"]) == "todo-server: error: max tables must be positive, not 0")
        #expect(try await ConfigurationTests.oneLineError(["--max-columns", "5"]).hasPrefix("todo-server: error: max columns must be between 6"))
        #expect(try await ConfigurationTests.oneLineError(["--max-columns", "5000"]).hasPrefix("todo-server: error: max columns must be between 6"))
        #expect(try await ConfigurationTests.oneLineError([], environment: ["TODO_SERVER_MAX_TABLES": "many"]) == "todo-server: error: TODO_SERVER_MAX_TABLES must be a whole number, not 'many'")
    }

    @Test func passwordRoundsBelowRFC8018sFloorAreAnError() async throws {
        #expect(try await ConfigurationTests.oneLineError(["--password-rounds", "999"]) == "todo-server: error: password rounds must be between 1000 and 10000000, not 999")
    }

    /// Runs the server with `arguments` and answers its only stderr line, expecting status 1.
    static func oneLineError(_ arguments: [String], environment: [String: String] = [:]) async throws -> String {
        let database = try TempDir.make().appendingPathComponent("s.sqlite").path
        let (status, stderr) = try await ServerProcess.runToExit(arguments: ["--port", "0", "--database", database] + arguments, environment: environment)
        #expect(status == 1)
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(stderr)")
        return String(lines.first ?? "")
    }

    @Test func sigtermStopsTheServerGracefully() async throws {
        let dir = try TempDir.make()
        let server = try await ServerProcess.start(arguments: ["--database", dir.appendingPathComponent("s.sqlite").path])
        #expect(server.stop() == 0)
    }
}
