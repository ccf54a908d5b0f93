import Foundation
@testable import OfflineSync
import ServerTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Devices syncing through two server processes that read from a PostgreSQL standby replaying
/// each commit 500 ms late (`scripts/with-postgres.sh`), while they write.
@Suite struct ReplicaPullTests {
    @Test func devicesPullingFromALaggingStandbyWhileTheyWriteConvergeWithNothingSkipped() async throws {
        let env = ProcessInfo.processInfo.environment
        guard let primary = env["TODO_TEST_POSTGRES_URL"], let standby = env["TODO_TEST_POSTGRES_STANDBY_URL"] else {
            throw ServerStartError(description: "TODO_TEST_POSTGRES_URL and TODO_TEST_POSTGRES_STANDBY_URL are not set: run the tests with `make test`")
        }
        let arguments = ["--database", primary, "--read-database", standby, "--metrics"]
        let first = try await ServerProcess.start(arguments: arguments)
        let second = try await ServerProcess.start(arguments: arguments)
        defer { _ = first.stop(); _ = second.stop() }
        let a = try await SyncFixture.make(server: first)
        let devices = [a] + (try (1..<4).map { i in
            try SyncFixture(table: a.table, storePath: try TempDir.make().appendingPathComponent("d\(i).sqlite").path,
                            serverURL: (i % 2 == 0 ? first : second).baseURL)
        })
        let rounds = 12
        // Each device writes, pushes and pulls (leaving its own writes out, then moving its
        // cursor past them) as fast as it can, all at once.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (d, device) in devices.enumerated() {
                group.addTask {
                    for round in 0..<rounds {
                        _ = try await device.local.insert(todo("d\(d)-r\(round)", "device \(d), round \(round)"))
                        try await device.context.push()
                        try await device.local.pull(queryId: "all")
                    }
                }
            }
            try await group.waitForAll()
        }
        let everything = Set(devices.indices.flatMap { d in (0..<rounds).map { "d\(d)-r\($0)" } })
        // A cursor moved past a row it never read would leave that row out for good.
        for (d, device) in devices.enumerated() {
            try await until("device \(d) has every row", timeout: 20) {
                try await device.local.pull(queryId: "all")
                return Set(try device.local.read(device.local.query.limit(1000)).items.compactMap { $0["id"]?.stringValue }) == everything
            }
        }
        // Once it has replayed the writes, the standby answers the pulls.
        try await until("the standby serves pulls", timeout: 20) {
            for device in devices { try await device.local.pull(queryId: "all") }
            return try await Self.standbyReads(of: first) + Self.standbyReads(of: second) > 0
        }
    }

    @Test func aPullLeavingOutItsOwnWritesAsksForEveryWriteUpToTheNewestOfThem() async throws {
        let transport = FaultyTransport()
        let device = try await SyncFixture.make(transport: transport)
        try await device.local.pull(queryId: "all")
        _ = try await device.local.insert(todo("o1", "mine"))
        _ = try await device.local.insert(todo("o2", "mine too"))
        try await device.context.push()
        let newest = try #require(try await device.serverItems().values.compactMap { $0["updatedAt"]?.stringValue }.max())
        try await device.local.pull(queryId: "all")
        let pages = transport.requestsWithHeaders.filter { $0.0 == "GET /tables/\(device.table)" }
        #expect(pages.first?.1["X-Read-After"] == nil, "the first pull had no own writes to leave out")
        #expect(pages.last?.1["X-Read-After"] == newest)
    }

    /// `todo_replica_reads{database="standby"}` from the server's metrics.
    static func standbyReads(of server: ServerProcess) async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: server.baseURL.appendingPathComponent("metrics"))
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("todo_replica_reads{database=\"standby\"}") }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Int(Double($0) ?? -1) } ?? -1
    }
}

/// Polls an async `condition` every 50 ms until it holds; fails after `timeout` seconds.
private func until(_ what: String, timeout: Double, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while try await !condition() {
        guard Date() < deadline else { throw ServerStartError(description: "timed out waiting until \(what)") }
        try await Task.sleep(for: .milliseconds(50))
    }
}
