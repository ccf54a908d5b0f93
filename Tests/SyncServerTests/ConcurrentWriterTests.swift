import ServerTestSupport
import Foundation
import Testing

/// "A change acknowledged to any client is never skipped by a later incremental pull."
@Suite struct ConcurrentWriterTests {
    @Test(arguments: Backend.allCases)
    func noAcknowledgedWriteIsMissedWhileFourWritersInsertDuringAPull(_ backend: Backend) async throws {
        let shared = try await SharedServers.shared.server(backend)
        // PostgreSQL: two stateless server processes on one database, writers split between them.
        let extra: ServerProcess? = backend == .postgres
            ? try await ServerProcess.start(arguments: ["--database", try backend.databaseArgument(in: URL(fileURLWithPath: "/tmp"))])
            : nil
        let servers = [shared] + (extra.map { [$0] } ?? [])
        defer { extra?.stop() }
        let table = uniqueTable()
        try await TableClient(shared).insertAll(table, [["id": "seed", "writer": -1]])

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
}
