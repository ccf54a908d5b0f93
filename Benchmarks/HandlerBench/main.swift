import Foundation
import SyncServer
import TableProtocol

// Development probe: what a pull page costs inside the server, without HTTP (best of 20
// batches). Usage: todo-bench-handler DATABASE [TOP], on a database seeded as `make bench`
// seeds its `bench` table (scripts/bench.py seed_sql).
let path = CommandLine.arguments[1]
let top = CommandLine.arguments.dropFirst(2).first ?? "50"
let database = try SQLiteDatabase(path: path)
let service = TableService(database: database, fixedSchema: false, limits: QueryLimits(pageSize: 50, maxTop: 1000), schemaCacheTTL: .infinity)
try await service.bootstrap()

/// The incremental pull's query string, with a token `n` milliseconds into the seeded rows.
func queryString(_ n: Int) -> String {
    let token = SyncDateFormat.string(from: Date(timeIntervalSince1970: 1_767_225_650 + Double(n % 1_000) / 1_000))
    return "$filter=(updatedAt%20ge%20datetimeoffset'\(token)')&$orderby=updatedAt%20asc&$top=\(top)&$skip=0&__includeDeleted=true"
}

func micros(_ d: Duration) -> Double { Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12 }

/// Best per-page time over 20 batches; `distinct` gives each request its own token.
nonisolated func measure(distinct: Bool) async throws -> Double {
    let strings = (0..<2_000).map { queryString(distinct ? $0 : 0) }
    var best = Double.infinity
    let clock = ContinuousClock()
    for _ in 0..<20 {
        let start = clock.now
        for string in strings { _ = try await service.query(table: "bench", queryString: string) }
        best = min(best, micros(clock.now - start) / Double(strings.count))
    }
    return best
}

let repeated = try await measure(distinct: false)
let distinct = try await measure(distinct: true)
print(String(format: "per page: %.2f µs repeating one query, %.2f µs with a new token each time", repeated, distinct))
