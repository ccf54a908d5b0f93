import ServerTestSupport
import Foundation
import Testing

/// The incremental-pull algorithm of sync-semantics.md against the real server.
@Suite struct IncrementalPullTests {
    @Test(arguments: Backend.allCases)
    func pullReceivesEveryRowWhen130RowsShareOneTimestamp(_ backend: Backend) async throws {
        let server = try await SharedServers.shared.server(backend)
        let c = TableClient(server)
        let table = uniqueTable()
        let ids = (0..<130).map { String(format: "row%03d", $0) }
        try await c.insertAll(table, ids.map { ["id": $0, "text": $0] })
        // Imported data can share a timestamp; the server never produces that itself.
        let physical = try StoreSQL.physicalTable(of: table, backend: backend, server: server)
        try StoreSQL.run("UPDATE \"\(physical)\" SET \"updatedAt\" = '2026-05-05T05:05:05.555Z' WHERE \"__owner\" = ''", backend: backend, server: server)
        var puller = IncrementalPuller(client: c, table: table)
        try await puller.pull()
        #expect(Set(puller.received.keys) == Set(ids))
        #expect(puller.token == "2026-05-05T05:05:05.555Z")
    }

    @Test(arguments: Backend.allCases)
    func resumingFromTheSavedTokenReceivesOnlyNewerChanges(_ backend: Backend) async throws {
        let c = TableClient(try await SharedServers.shared.server(backend))
        let table = uniqueTable()
        try await c.insertAll(table, (0..<60).map { ["id": "old\($0)"] })
        var puller = IncrementalPuller(client: c, table: table)
        try await puller.pull()
        #expect(puller.received.count == 60)
        try await c.insertAll(table, [["id": "new1"], ["id": "new2"]])
        _ = try await c.delete("tables/\(table)/old3")
        var resumed = IncrementalPuller(client: c, table: table)
        resumed.token = puller.token
        try await resumed.pull()
        // The row at the token itself comes again (`ge`); nothing older does.
        #expect(Set(resumed.received.keys).isSuperset(of: ["new1", "new2", "old3"]))
        #expect(resumed.received.count <= 4)
    }

    @Test(arguments: Backend.allCases)
    func updatedAtStrictlyIncreasesPerTable(_ backend: Backend) async throws {
        let c = TableClient(try await SharedServers.shared.server(backend))
        let table = uniqueTable()
        let stored = try await c.insertAll(table, (0..<40).map { ["id": "i\($0)"] })
        let stamps = stored.map { $0["updatedAt"] as! String }
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
    }
}
