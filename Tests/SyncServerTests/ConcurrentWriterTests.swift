import ServerTestSupport
import Foundation
import Synchronization
import Testing

/// "A change acknowledged to any client is never skipped by a later incremental pull."
@Suite struct ConcurrentWriterTests {
    /// The shared server, on PostgreSQL a second stateless process on the same database (the
    /// caller stops it; writers are split between them), and a table with one seed row.
    func setUp(_ backend: Backend) async throws -> (shared: ServerProcess, extra: ServerProcess?, table: String) {
        let shared = try await SharedServers.shared.process(backend)
        let extra: ServerProcess? = backend == .postgres
            ? try await ServerProcess.start(arguments: ["--database", try backend.databaseArgument(in: URL(fileURLWithPath: "/tmp"))])
            : nil
        let table = uniqueTable()
        do {
            try await TableClient(shared).insertAll(table, [["id": "seed", "writer": -1]])
        } catch {
            extra?.stop()
            throw error
        }
        return (shared, extra, table)
    }

    @Test(arguments: Backend.allCases)
    func noAcknowledgedWriteIsMissedWhileFourWritersInsertDuringAPull(_ backend: Backend) async throws {
        let (shared, extra, table) = try await setUp(backend)
        let servers = [shared] + (extra.map { [$0] } ?? [])
        defer { extra?.stop() }

        enum Outcome: Sendable {
            case written([String])
            case pulled(token: String, ids: Set<String>)
        }
        let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group -> [Outcome] in
            for writer in 0..<4 {
                let client = TableClient(servers[writer % servers.count])
                group.addTask {
                    var ids: [String] = []
                    for n in 0..<60 {
                        let id = "w\(writer)-\(n)"
                        let reply = try await client.post("tables/\(table)", ["id": id, "writer": writer])
                        if reply.status == 201 { ids.append(id) }
                    }
                    return .written(ids)
                }
            }
            // The reader pulls incrementally while the writers run, saving its token as it goes.
            group.addTask {
                var puller = IncrementalPuller(client: TableClient(servers.last!), table: table)
                puller.pageSize = 7
                for _ in 0..<15 { try await puller.pull() }
                return .pulled(token: puller.token, ids: Set(puller.received.keys))
            }
            var all: [Outcome] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
        var writes: [String] = []
        var seen: Set<String> = []
        var token = ""
        for outcome in outcomes {
            switch outcome {
            case .written(let ids): writes += ids
            case .pulled(let t, let ids): (token, seen) = (t, ids)
            }
        }
        #expect(seen.count > 1, "the reader should have pulled while writers ran")

        // Resume from the saved token after the writers stopped: together, nothing is missing.
        var resumed = IncrementalPuller(client: TableClient(shared), table: table)
        resumed.token = token
        try await resumed.pull()
        seen.formUnion(resumed.received.keys)
        #expect(Set(writes).count == 240)
        #expect(Set(writes).subtracting(seen).isEmpty)
    }

    @Test(arguments: Backend.allCases)
    func aKeysetPullMissesNoEditWhileFourWritersInsertAndEditDuringIt(_ backend: Backend) async throws {
        let (shared, extra, table) = try await setUp(backend)
        let servers = [shared] + (extra.map { [$0] } ?? [])
        defer { extra?.stop() }

        // Edits move rows to the end of the pull's order while it pages: a $skip pull can step over
        // the rows that slide into the skipped positions; a keyset pull cannot.
        let writersDone = FinishedCount()
        let pulled = try await withThrowingTaskGroup(of: (token: String, versions: [String: String])?.self) { group in
            for writer in 0..<4 {
                let client = TableClient(servers[writer % servers.count])
                group.addTask {
                    for n in 0..<40 {
                        _ = try await client.post("tables/\(table)", ["id": "w\(writer)-\(n)", "writer": writer])
                        // Mostly the row just written: the newest rows are the ones a pull is paging over.
                        _ = try await client.patch("tables/\(table)/w\(writer)-\(n - Int.random(in: 0...min(n, 2)))", ["edit": n])
                    }
                    writersDone.value.add(1, ordering: .relaxed)
                    return nil
                }
            }
            group.addTask {
                var puller = IncrementalPuller(client: TableClient(servers.last!), table: table)
                (puller.pageSize, puller.keyset) = (3, true)
                while writersDone.value.load(ordering: .relaxed) < 4 { try await puller.pull() }
                return (puller.token, puller.versions)
            }
            var pulled: (token: String, versions: [String: String])?
            for try await outcome in group { pulled = outcome ?? pulled }
            return pulled!
        }
        #expect(pulled.versions.count > 1, "the reader should have pulled while writers ran")

        // Resume from the saved token after the writers stopped: every row's last version arrived.
        var resumed = IncrementalPuller(client: TableClient(shared), table: table)
        (resumed.token, resumed.pageSize, resumed.keyset) = (pulled.token, 3, true)
        try await resumed.pull()
        let versions = pulled.versions.merging(resumed.versions) { _, later in later }
        let server = try await TableClient(shared).get("tables/\(table)", [("$top", "1000")]).array
        #expect(server.count == 161)
        for row in server { #expect(versions[row["id"] as! String] == row["version"] as? String, "\(row["id"]!)") }
    }
}

/// Each account's clock orders its own writes: several accounts writing at once through two
/// processes on one PostgreSQL never make one of them skip an acknowledged write of its own.
@Suite struct ConcurrentAccountTests {
    @Test(arguments: Backend.allCases)
    func everyAccountsPullMissesNothingOfItsOwnWhileOthersWriteBesideIt(_ backend: Backend) async throws {
        let database = try backend.databaseArgument(in: try TempDir.make())
        let first = try await ServerProcess.start(arguments: ["--database", database, "--auth", "required"])
        let second = backend == .postgres ? try await ServerProcess.start(arguments: ["--database", database, "--auth", "required"]) : nil
        defer { _ = second?.stop() }
        let servers = [first] + (second.map { [$0] } ?? [])
        let table = uniqueTable()
        var clients: [[TableClient]] = []
        for account in 0..<3 {
            let name = "writer\(account)-" + UUID().uuidString.prefix(8).lowercased()
            try await AuthServer.users(["add", name, "--password-stdin"], database: database, input: "correct horse\n")
            let login = try await TableClient(first).post(".auth/login", ["username": name, "password": "correct horse"])
            let token = try #require(login.object["authenticationToken"] as? String)
            clients.append(servers.map { var client = TableClient($0); client.defaultHeaders = ["X-ZUMO-AUTH": token]; return client })
        }
        let writersDone = FinishedCount()
        let pulled = try await withThrowingTaskGroup(of: (account: Int, token: String, ids: Set<String>)?.self) { group in
            for account in clients.indices {
                for writer in 0..<2 {
                    let client = clients[account][writer % servers.count]
                    group.addTask {
                        for n in 0..<40 { _ = try await client.post("tables/\(table)", ["id": "a\(account)-w\(writer)-\(n)", "n": n]) }
                        writersDone.value.add(1, ordering: .relaxed)
                        return nil
                    }
                }
                let reader = clients[account].last!
                group.addTask {
                    var puller = IncrementalPuller(client: reader, table: table)
                    (puller.pageSize, puller.keyset) = (5, true)
                    while writersDone.value.load(ordering: .relaxed) < 6 { try await puller.pull() }
                    return (account, puller.token, Set(puller.received.keys))
                }
            }
            var pulled: [(account: Int, token: String, ids: Set<String>)] = []
            for try await outcome in group { if let outcome { pulled.append(outcome) } }
            return pulled
        }
        for (account, token, ids) in pulled {
            var resumed = IncrementalPuller(client: clients[account][0], table: table)
            (resumed.token, resumed.keyset) = (token, true)
            try await resumed.pull()
            let seen = ids.union(resumed.received.keys)
            let mine = Set((0..<2).flatMap { writer in (0..<40).map { "a\(account)-w\(writer)-\($0)" } })
            #expect(seen == mine, "account \(account): missing \(mine.subtracting(seen).count), foreign \(seen.subtracting(mine).count)")
        }
    }
}

/// How many concurrent tasks have finished, shared between them.
private final class FinishedCount: Sendable {
    let value = Atomic(0)
}
