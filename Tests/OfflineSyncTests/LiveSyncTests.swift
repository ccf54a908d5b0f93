import Foundation
import OfflineSync
import ServerTestSupport
import Synchronization
import TableProtocol
import Testing

/// Live mode against real servers: feeds, automatic push and pull, reconnects, polling.
@Suite struct LiveSyncTests {
    /// Fast timings so reconnects happen within a test's patience.
    static let fast = LiveSync.Options(pushDelay: 0.1, backoff: ReconnectBackoff(initial: 0.2, maximum: 0.5), pollInterval: 0.5, silenceTimeout: 5)

    /// Live mode on a device, once its feed is open; its states go to `states`.
    static func listening(_ device: SyncFixture, states: StateLog = StateLog()) async throws -> LiveSync {
        let live = LiveSync(context: device.context, tables: [device.table], options: fast, onState: states.record)
        live.start()
        try await states.wait(for: .live)
        return live
    }

    @Test func aChangeOnOneDeviceReachesTheOtherWithNoSyncCalled() async throws {
        let a = try await SyncFixture.make()
        let b = try a.otherDevice()
        let live = try await Self.listening(b)
        defer { live.stop() }
        _ = try await a.local.insert(todo("x1", "from A"))
        try await a.context.push()
        try await until("B has A's item") { try b.local.read(id: "x1")?["text"] == .string("from A") }
    }

    @Test func aChangeThroughOneServerProcessReachesADeviceOnAnotherSharingPostgreSQL() async throws {
        guard let database = ProcessInfo.processInfo.environment["TODO_TEST_POSTGRES_URL"] else {
            throw ServerStartError(description: "TODO_TEST_POSTGRES_URL is not set: run the tests with `make test` (it starts a throwaway PostgreSQL)")
        }
        let first = try await ServerProcess.start(arguments: ["--database", database])
        let second = try await ServerProcess.start(arguments: ["--database", database])
        let a = try await SyncFixture.make(server: first)
        let b = try SyncFixture(table: a.table, storePath: try TempDir.make().appendingPathComponent("b.sqlite").path, serverURL: second.baseURL)
        let live = try await Self.listening(b)
        defer { live.stop() }
        _ = try await a.local.insert(todo("pg1", "through the first process"))
        try await a.context.push()
        try await until("B, on the second process, has the item") { try b.local.read(id: "pg1") != nil }
    }

    @Test func localChangesArePushedShortlyAfterTheyAreMade() async throws {
        let a = try await SyncFixture.make()
        let live = LiveSync(context: a.context, tables: [a.table], options: Self.fast)
        live.start()
        defer { live.stop() }
        _ = try await a.local.insert(todo("p1", "pushed by itself"))
        try await until("the insert reached the server") { a.context.pendingOperationsCount == 0 }
        #expect(try await a.serverItems()["p1"]?["text"] == .string("pushed by itself"))
    }

    @Test func aBurstOfLocalChangesGoesInAFewPushes() async throws {
        let a = try await SyncFixture.make()
        let pushes = Counter()
        let live = LiveSync(context: a.context, tables: [a.table], options: LiveSync.Options(pushDelay: 0.3, backoff: Self.fast.backoff),
                            onSync: { activity, _ in if activity == .pushed { pushes.add() } })
        live.start()
        defer { live.stop() }
        for i in 0..<30 { _ = try await a.local.insert(todo(String(format: "b%02d", i), "burst \(i)")) }
        try await until("the burst reached the server") { a.context.pendingOperationsCount == 0 }
        #expect(try await a.serverItems().count == 30)
        #expect(pushes.value <= 3)
    }

    @Test func aPullThatFailsOnAServerErrorIsTriedAgain() async throws {
        let a = try await SyncFixture.make()
        let transport = FaultyTransport()
        let b = try SyncFixture(table: a.table, storePath: try TempDir.make().appendingPathComponent("b.sqlite").path,
                                serverURL: a.serverURL, transport: transport)
        let failures = Counter()
        // A long silence timeout, so no reconnect (and its pull) comes to the rescue.
        let options = LiveSync.Options(pushDelay: 0.1, backoff: Self.fast.backoff, silenceTimeout: 120)
        let live = LiveSync(context: b.context, tables: [b.table], options: options,
                            onSync: { activity, error in if activity == .pulled, error != nil { failures.add() } })
        transport.fail("GET", with: .status500)
        live.start()
        defer { live.stop() }
        _ = try await a.local.insert(todo("e1", "announced during an outage"))
        try await a.context.push()
        try await until("a pull failed") { failures.value >= 1 }
        transport.fail("GET", with: nil)
        // No new event comes: only the retry can bring it.
        try await until("B has the item", timeout: 10) { try b.local.read(id: "e1") != nil }
    }

    @Test func manyEventsCoalesceIntoFewPulls() async throws {
        let a = try await SyncFixture.make()
        let b = try a.otherDevice()
        let pulls = Counter()
        let live = LiveSync(context: b.context, tables: [b.table], options: Self.fast,
                            onSync: { activity, _ in if activity == .pulled { pulls.add() } })
        live.start()
        defer { live.stop() }
        try await until("the first pull") { pulls.value >= 1 }
        for i in 0..<40 { _ = try await a.local.insert(todo(String(format: "c%02d", i), "item \(i)")) }
        try await a.context.push()
        try await until("B has all 40") { try b.local.read(b.local.query.withTotalCount()).totalCount == 40 }
        #expect(pulls.value < 40)
    }

    @Test func aRestartedServerIsReconnectedAndNothingIsMissed() async throws {
        let database = try TempDir.make().appendingPathComponent("server.sqlite").path
        var server: ServerProcess? = try await ServerProcess.start(arguments: ["--database", database])
        let port = server!.port
        let a = try await SyncFixture.make(server: server)
        let b = try a.otherDevice()
        let states = StateLog()
        let live = try await Self.listening(b, states: states)
        defer { live.stop() }
        server!.child.signal(SIGKILL)
        server!.child.wait()
        server = nil
        try await states.wait { if case .offline = $0 { true } else { false } }
        // Written while B is cut off, then the server comes back on the same port.
        let restarted = try await ServerProcess.start(arguments: ["--database", database, "--port", "\(port)"])
        _ = try await a.local.insert(todo("r1", "written during the outage"))
        try await a.context.push()
        try await until("B has the item written during the outage") { try b.local.read(id: "r1") != nil }
        try await states.wait(for: .live)
        _ = restarted
    }

    @Test func withoutAFeedItPollsAndSaysSo() async throws {
        let server = try await ServerProcess.start(arguments: ["--database", try TempDir.make().appendingPathComponent("s.sqlite").path, "--no-change-feed"])
        let a = try await SyncFixture.make(server: server)
        let b = try a.otherDevice()
        let states = StateLog()
        let live = LiveSync(context: b.context, tables: [b.table], options: Self.fast, onState: states.record)
        live.start()
        defer { live.stop() }
        try await states.wait(for: .polling(every: 1))
        _ = try await a.local.insert(todo("q1", "found by polling"))
        try await a.context.push()
        try await until("B polled the item") { try b.local.read(id: "q1") != nil }
    }

    @Test func aConflictDuringAnAutomaticPushReachesTheDelegate() async throws {
        let a = try await SyncFixture.make()
        _ = try await a.local.insert(todo("k1", "base"))
        try await a.context.push()
        let delegate = ConflictDelegate(.useServer)
        let b = try a.otherDevice(delegate: delegate)
        try await b.local.pull()
        var changed = try #require(try a.local.read(id: "k1"))
        changed["text"] = "server side"
        try await a.local.update(changed)
        try await a.context.push()
        let live = LiveSync(context: b.context, tables: [b.table], options: LiveSync.Options(pushDelay: 0.1, backoff: Self.fast.backoff, silenceTimeout: 5))
        var mine = try #require(try b.local.read(id: "k1"))
        mine["text"] = "client side"
        try await b.local.update(mine)
        live.start()
        defer { live.stop() }
        try await until("the delegate was asked") { !delegate.conflicts.isEmpty }
        try await until("the server's value was kept") { try b.local.read(id: "k1")?["text"] == .string("server side") }
    }

    @Test func stoppingEndsStateReportsAndPushes() async throws {
        let a = try await SyncFixture.make()
        let states = StateLog()
        let pulls = Counter()
        let live = LiveSync(context: a.context, tables: [a.table], options: Self.fast, onState: states.record,
                            onSync: { _, _ in pulls.add() })
        live.start()
        try await until("the pull on connecting") { pulls.value == 1 }
        live.stop()
        _ = try await a.local.insert(todo("s1", "after stop"))
        try await Task.sleep(for: .milliseconds(400))
        #expect(a.context.pendingOperationsCount == 1)
        #expect(states.all.last == .stopped)
        #expect(pulls.value == 1)
    }
}

/// Every state live mode reported, in order.
final class StateLog: Sendable {
    private let states = Mutex<[LiveSyncState]>([])
    var all: [LiveSyncState] { states.withLock { $0 } }
    var record: @Sendable (LiveSyncState) -> Void { { state in self.states.withLock { $0.append(state) } } }

    func wait(for state: LiveSyncState, timeout: Double = 15) async throws {
        try await wait(timeout: timeout) { $0 == state }
    }

    /// Waits for a state reported after this call... or already the newest one.
    func wait(timeout: Double = 15, _ match: @escaping (LiveSyncState) -> Bool) async throws {
        try await until("a state", timeout: timeout) { self.all.last.map(match) ?? false }
    }
}

/// A thread-safe count.
final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}

/// Polls a condition until it holds, or fails after `timeout` seconds.
func until(_ what: String, timeout: Double = 15, _ condition: () throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while try !condition() {
        if Date() > deadline { throw LiveTestTimeout(description: "timed out waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(10))
    }
}

struct LiveTestTimeout: Error, CustomStringConvertible { var description: String }
