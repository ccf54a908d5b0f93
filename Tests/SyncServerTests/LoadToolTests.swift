import Foundation
import ServerTestSupport
import Testing

/// `todo-load` (what `make load` runs), small: real devices on the SDK against real servers.
@Suite struct LoadToolTests {
    /// Runs todo-load for a few seconds with a few devices; answers its exit status and report.
    func load(_ servers: [ServerProcess], devices: Int = 6) async throws -> (Int32, [String: Any]) {
        var arguments = ["--devices", "\(devices)", "--seconds", "3", "--work", try TempDir.make().path, "--table", uniqueTable("load")]
        for server in servers { arguments += ["--server", "http://127.0.0.1:\(server.port)"] }
        return try await todoLoad(arguments)
    }

    /// Runs todo-load with `arguments`; answers its exit status and report.
    func todoLoad(_ arguments: [String]) async throws -> (Int32, [String: Any]) {
        let binary = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("todo-load").path
        let child = try ChildProcess(binary, arguments, captureOutput: true)
        let output = try await offPool { child.standardOutput!.readDataToEndOfFile() }
        let status = try await offPool { child.wait() }
        return (status, try JSONSerialization.jsonObject(with: output) as? [String: Any] ?? [:])
    }

    @Test func devicesOnTwoServersSharingPostgreSQLLoseNothingAndConverge() async throws {
        let database = try Backend.postgres.databaseArgument(in: TempDir.make())
        let first = try await ServerProcess.start(arguments: ["--database", database])
        let second = try await ServerProcess.start(arguments: ["--database", database])
        defer { _ = first.stop(); _ = second.stop() }
        let (status, report) = try await load([first, second])
        #expect(status == 0, "\(report)")
        #expect(report["lostWrites"] as? Int == 0)
        #expect(report["duplicatedWrites"] as? Int == 0)
        #expect(report["divergedDevices"] as? Int == 0)
        #expect((report["writesChecked"] as? Int ?? 0) >= 12, "every device wrote at least one round")
        #expect(((report["requests"] as? [String: Any])?["POST batch"] as? [String: Any])?["count"] as? Int ?? 0 > 0)
    }

    @Test func devicesOnOneSQLiteServerLoseNothingAndConverge() async throws {
        let server = try await ServerProcess.start(arguments: ["--database", try Backend.sqlite.databaseArgument(in: TempDir.make())])
        defer { _ = server.stop() }
        let (status, report) = try await load([server])
        #expect(status == 0, "\(report)")
        #expect(report["lostWrites"] as? Int == 0)
        #expect(report["divergedDevices"] as? Int == 0)
    }

    @Test func membersOfSharedSpacesOnTwoPostgreSQLServersLoseNothingConvergeAndSeeOnlyTheirSpaces() async throws {
        let database = try Backend.postgres.databaseArgument(in: TempDir.make())
        let users = "lt" + UUID().uuidString.prefix(6).lowercased()
        for n in 0..<4 { try await AuthServer.users(["add", "\(users)-\(n)", "--password-stdin"], database: database, input: "password \(users)-\(n)\n") }
        let first = try await ServerProcess.start(arguments: ["--database", database, "--auth", "required"])
        let second = try await ServerProcess.start(arguments: ["--database", database, "--auth", "required"])
        defer { _ = first.stop(); _ = second.stop() }
        let arguments = ["spaces", "--accounts", "4", "--spaces", "4", "--members", "2", "--seconds", "3", "--work", try TempDir.make().path,
                         "--table", uniqueTable("load"), "--users", users,
                         "--server", "http://127.0.0.1:\(first.port)", "--server", "http://127.0.0.1:\(second.port)"]
        let (status, report) = try await todoLoad(arguments)
        #expect(status == 0, "\(report)")
        #expect(report["lostWrites"] as? Int == 0 && report["duplicatedWrites"] as? Int == 0 && report["divergedDevices"] as? Int == 0)
        #expect(report["foreignRows"] as? Int == 0)
        #expect((report["writesChecked"] as? Int ?? 0) >= 8, "every device wrote at least one round")
    }

    /// `make soak` for one minute (CI's run): two servers reading the test cluster's standby,
    /// accounts on, devices live; nothing lost, every device converged, the servers' memory read.
    @Test func aMinuteOfSoakOnTwoServersReadingAStandbyLosesNothingAndConverges() async throws {
        let database = try Backend.postgres.databaseArgument(in: TempDir.make())
        guard let standby = ProcessInfo.processInfo.environment["TODO_TEST_POSTGRES_STANDBY_URL"] else {
            throw ServerStartError(description: "TODO_TEST_POSTGRES_STANDBY_URL is not set: run the tests with `make test`")
        }
        let users = "sk" + UUID().uuidString.prefix(6).lowercased()
        for n in 0..<5 { try await AuthServer.users(["add", "\(users)-\(n)", "--password-stdin"], database: database, input: "password \(users)-\(n)\n") }
        let serverArguments = ["--database", database, "--read-database", standby, "--auth", "required"]
        let first = try await ServerProcess.start(arguments: serverArguments)
        let second = try await ServerProcess.start(arguments: serverArguments)
        defer { _ = first.stop(); _ = second.stop() }
        let arguments = ["soak", "--devices", "10", "--seconds", "60", "--interval", "1", "--work", try TempDir.make().path,
                         "--table", uniqueTable("soak"), "--users", users,
                         "--server", "http://127.0.0.1:\(first.port)", "--server", "http://127.0.0.1:\(second.port)",
                         "--server-pid", "\(first.child.pid)", "--server-pid", "\(second.child.pid)"]
        let (status, report) = try await todoLoad(arguments)
        #expect(status == 0, "\(report)")
        #expect(report["lostWrites"] as? Int == 0 && report["duplicatedWrites"] as? Int == 0 && report["divergedDevices"] as? Int == 0)
        #expect((report["writesChecked"] as? Int ?? 0) >= 100, "ten devices wrote for a minute")
        #expect((report["memory"] as? [[String: Any]])?.count == 2, "both servers' memory was read")
        #expect((report["windows"] as? [[String: Any]])?.isEmpty == false)
    }
}
