import Foundation
import ServerTestSupport
@testable import SyncServer
import Testing

/// A PostgreSQL table's pages use its index from its first thousand rows on, without waiting
/// for autovacuum to gather statistics (`PostgresTableStatistics`).
@Suite struct FreshTablePlanTests {
    @Test func aTableThatGrowsFromNothingToTenThousandRowsIsPagedThroughItsIndex() async throws {
        try await InProcessServer.with(.postgres) { server in
            let c = TableClient(server)
            let table = uniqueTable()
            for chunk in 0..<10 {
                let operations: [[String: Any]] = (0..<1000).map { i in
                    ["method": "POST", "table": table, "body": ["id": "r\(chunk)-\(i)", "text": "row \(i) of chunk \(chunk)"]]
                }
                #expect(try await c.post("tables/$batch", ["operations": operations]).status == 200)
            }
            let physical = try StoreSQL.physicalTable(of: table, backend: .postgres, server: server)
            let statistics = try #require((server.store as? PostgresDatabase)?.statistics)
            // The analyses run off the requests; the last one due starts at 6,750 rows.
            let deadline = Date().addingTimeInterval(20)
            while try Self.rowsPostgreSQLBelieves(physical, server) < 6_000 {
                guard Date() < deadline else { throw ServerStartError(description: "\(physical) was not analyzed") }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(statistics.analyses.load(ordering: .relaxed) >= 1)
            // The first page, as a pull asks for it.
            let plan = try StoreSQL.query(#"""
                EXPLAIN SELECT * FROM "\#(physical)" WHERE "__owner" = '' AND "deleted" = false
                AND "updatedAt" >= '2000-01-01T00:00:00.000Z' ORDER BY "updatedAt", "id" LIMIT 51
                """#, backend: .postgres, server: server)
            #expect(!plan.contains { $0.contains("Sort") }, "\(plan.joined(separator: "\n"))")
            #expect(plan.contains { $0.contains("Index Scan") }, "\(plan.joined(separator: "\n"))")
        }
    }

    /// `reltuples`: the rows PostgreSQL's planner believes the table holds (-1: never analyzed).
    static func rowsPostgreSQLBelieves(_ physical: String, _ server: InProcessServer) throws -> Double {
        Double(try StoreSQL.query(#"SELECT reltuples FROM pg_class WHERE relname = '\#(physical)'"#, backend: .postgres, server: server).first ?? "") ?? -1
    }
}
