import Foundation
import ServerTestSupport
@testable import SyncServer
import Testing

/// Pulls and item reads from a PostgreSQL hot standby (`--read-database`): the test cluster's
/// standby replays each commit 500 ms late (`scripts/with-postgres.sh`), so "just written" is
/// reliably "not on the standby yet".
@Suite struct ReadReplicaTests {
    @Test func anIncrementalPullThatSkipsItsOwnWriteStillSeesEveryEarlierWriteThoughTheStandbyLags() async throws {
        try await Self.withReplica { server, replicas in
            let c = TableClient(server)
            let table = uniqueTable()
            try await c.insertAll(table, [["id": "before", "text": "seen by both"]])
            try await Self.replayed(table, by: replicas)
            // Another device's write, then this device's own, both acknowledged.
            try await c.insertAll(table, [["id": "theirs", "text": "another device"]])
            let own = try await c.insertAll(table, [["id": "mine", "text": "this device"]])
            let ownStamp = try #require(own.first?["updatedAt"] as? String)
            // The SDK's pull: its own stamp left out, the cursor then moved past it. Every row
            // before that stamp must be in this reply, or the cursor would skip it for good.
            let reply = try await c.send("GET", "tables/\(table)", query: [
                ("$filter", "(updatedAt ge datetimeoffset'2000-01-01T00:00:00.000Z') and not (updatedAt eq datetimeoffset'\(ownStamp)')"),
                ("$orderby", "updatedAt,id"), ("__includeDeleted", "true"),
            ], headers: ["X-Read-After": ownStamp])
            #expect(reply.status == 200)
            #expect(reply.ids == ["before", "theirs"])
        }
    }

    @Test func anItemReadRightAfterItsWriteFindsItThoughTheStandbyLags() async throws {
        try await Self.withReplica { server, replicas in
            let c = TableClient(server)
            let table = uniqueTable()
            try await c.insertAll(table, [["id": "old", "text": "written earlier"]])
            try await Self.replayed(table, by: replicas)
            let stored = try await c.insertAll(table, [["id": "new", "text": "just written"]])
            let stamp = try #require(stored.first?["updatedAt"] as? String)
            let served = replicas.standbyReads.load(ordering: .relaxed)
            let reply = try await c.send("GET", "tables/\(table)/new", headers: ["X-Read-After": stamp])
            #expect(reply.status == 200)
            #expect(reply.object["text"] as? String == "just written")
            #expect(replicas.standbyReads.load(ordering: .relaxed) == served, "the primary answered")
        }
    }

    @Test func aStandbyThatHasReplayedTheWritesServesThePull() async throws {
        try await Self.withReplica { server, replicas in
            let c = TableClient(server)
            let table = uniqueTable()
            let stored = try await c.insertAll(table, [["id": "a"], ["id": "b"]])
            let stamp = try #require(stored.last?["updatedAt"] as? String)
            try await Self.replayed(table, by: replicas)
            let before = replicas.standbyReads.load(ordering: .relaxed)
            let reply = try await c.send("GET", "tables/\(table)", headers: ["X-Read-After": stamp])
            #expect(reply.ids.sorted() == ["a", "b"])
            #expect(replicas.standbyReads.load(ordering: .relaxed) == before + 1)
        }
    }

    @Test func aWriteAnnouncedToThisProcessIsNotReadFromAStandbyThatLacksIt() async throws {
        try await Self.withReplica { server, replicas in
            let c = TableClient(server)
            let table = uniqueTable()
            try await c.insertAll(table, [["id": "old"]])
            try await Self.replayed(table, by: replicas)
            let stored = try await c.insertAll(table, [["id": "announced"]])
            let stamp = try #require(AnnouncedStamps.milliseconds(stored.first?["updatedAt"] as? String ?? ""))
            // A device woken by the change feed pulls without X-Read-After.
            try await until("the write was announced") { replicas.announced.newest(table: table, owner: "") ?? 0 >= stamp }
            let reply = try await c.get("tables/\(table)")
            #expect(reply.ids.sorted() == ["announced", "old"], "\(reply.status) \(reply.text)")
        }
    }

    @Test func aStandbyThatIsDownIsSkippedAndReadsGoToThePrimary() async throws {
        try await InProcessServer.with(.postgres, configure: { $0.readDatabases = ["postgres://postgres@127.0.0.1:9/todo_test"] }) { server in
            let replicas = try Self.replicas(of: server)
            try await until("the standby is found down") { if case .down = replicas.standbys[0].currentHealth { true } else { false } }
            let c = TableClient(server)
            let table = uniqueTable()
            try await c.insertAll(table, [["id": "x"]])
            #expect(try await c.get("tables/\(table)").ids == ["x"])
            #expect(try await c.get("tables/\(table)/x").status == 200)
            #expect(await server.store.connectionUse().replicas?.serving == 0)
        }
    }

    @Test func aReadNamingAColumnTheStandbyHasNotReplayedYetIsAnsweredByThePrimary() async throws {
        try await Self.withReplica { server, replicas in
            let c = TableClient(server)
            let table = uniqueTable()
            try await c.insertAll(table, [["id": "old"]])
            try await Self.replayed(table, by: replicas)
            // The column is added and the row written in two commits: with replay running, a
            // slow request let the standby replay the first and answer without the row.
            let reply = try await Self.withReplayPaused {
                try await c.insertAll(table, [["id": "new", "colour": "red"]])
                // No X-Read-After and, in case the announcement is late, nothing else telling the
                // server the standby is behind: the standby lacks the column and the primary answers.
                return try await c.get("tables/\(table)", [("$filter", "colour eq 'red'")])
            }
            #expect(reply.status == 200)
            #expect(reply.ids == ["new"])
        }
    }

    @Test func aStandbyFurtherBehindThanTheBoundServesNothing() async throws {
        // Other tests write to the same cluster, so a standby 500 ms late may never be within
        // 0.1 s: this test starts as soon as the standby answers, serving or not.
        try await Self.withReplica(maxLag: 0.1, startWhen: { if case .down = $0 { false } else { $0 != .unknown } }) { server, replicas in
            let c = TableClient(server)
            let table = uniqueTable()
            // Writes keep coming; the standby replays each 500 ms late.
            var written = 0
            try await until("the standby is found too far behind", timeout: 15) {
                written += 1
                try await c.insertAll(table, [["id": "w\(written)"]])
                if case .behind = replicas.standbys[0].currentHealth { return true }
                return false
            }
            let served = replicas.standbyReads.load(ordering: .relaxed)
            #expect(try await c.get("tables/\(table)", [("$top", "1000")]).ids.count == written)
            #expect(replicas.standbyReads.load(ordering: .relaxed) == served)
        }
    }

    @Test func aReadAfterThatIsNotADateIsRefused() async throws {
        try await Self.withReplica { server, _ in
            let reply = try await TableClient(server).send("GET", "tables/\(uniqueTable())", headers: ["X-Read-After": "yesterday"])
            #expect(reply.status == 400)
            #expect(reply.error?.contains("X-Read-After") == true)
        }
    }

    @Test func readDatabasesNeedAPostgreSQLPrimary() throws {
        var configuration = ServerConfiguration(database: "/tmp/server.sqlite")
        configuration.readDatabases = ["postgres://127.0.0.1/x"]
        #expect(throws: ServerConfigurationError.self) { try configuration.validate() }
    }

    // MARK: Support

    /// A server on the test cluster reading from its standby, once the standby serves (or once
    /// `startWhen` holds of its health).
    static func withReplica(maxLag: Double = 10, startWhen: @escaping (PostgresStandby.Health) -> Bool = \.serves,
                            _ body: (InProcessServer, PostgresReadReplicas) async throws -> Void) async throws {
        guard let standby = ProcessInfo.processInfo.environment["TODO_TEST_POSTGRES_STANDBY_URL"] else {
            throw ServerStartError(description: "TODO_TEST_POSTGRES_STANDBY_URL is not set: run the tests with `make test` (it starts a throwaway PostgreSQL and its standby)")
        }
        try await InProcessServer.with(.postgres, configure: { $0.readDatabases = [standby]; $0.readMaxLag = maxLag }) { server in
            let replicas = try replicas(of: server)
            try await until("the standby serves", timeout: 15) { startWhen(replicas.standbys[0].currentHealth) }
            try await body(server, replicas)
        }
    }

    /// Runs `body` with the standby's replay paused, so nothing committed meanwhile is on it.
    /// The pause is short: the other tests of this suite that wait for the standby only wait longer.
    static func withReplayPaused<T>(_ body: () async throws -> T) async throws -> T {
        let standby = try #require(ProcessInfo.processInfo.environment["TODO_TEST_POSTGRES_STANDBY_URL"])
        _ = try StoreSQL.query("SELECT pg_wal_replay_pause()", database: standby)
        let result: T
        do {
            // The call only asks for the pause; PostgreSQL's documentation has callers wait for
            // the state to say it is paused before relying on it.
            try await until("the standby's replay is paused") {
                try StoreSQL.query("SELECT pg_get_wal_replay_pause_state()", database: standby).first == "paused"
            }
            result = try await body()
        } catch {
            _ = try? StoreSQL.query("SELECT pg_wal_replay_resume()", database: standby)
            throw error
        }
        _ = try StoreSQL.query("SELECT pg_wal_replay_resume()", database: standby)
        return result
    }

    static func replicas(of server: InProcessServer) throws -> PostgresReadReplicas {
        try #require((server.store as? PostgresDatabase)?.replicas)
    }

    /// Waits until the standby has replayed every write of `table` made so far.
    static func replayed(_ table: String, by replicas: PostgresReadReplicas) async throws {
        let clock = try #require(Int64(try StoreSQL.query(
            #"SELECT "last" FROM "__clocks" WHERE "ns" = '' AND "tbl" = '\#(table)'"#, backend: .postgres, server: nil).first ?? ""))
        // Until then the standby may lack the table itself (an error).
        try await until("the standby replayed \(table)") { (try? await replicas.standbys[0].hasReplayed(table, of: "", upTo: clock)) ?? false }
    }
}

/// Polls `condition` every 20 ms until it holds; fails after `timeout` seconds.
private func until(_ what: String, timeout: Double = 15, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(timeout)
    while try await !condition() {
        guard Date() < deadline else { throw ServerStartError(description: "timed out waiting until \(what)") }
        try await Task.sleep(for: .milliseconds(20))
    }
}
