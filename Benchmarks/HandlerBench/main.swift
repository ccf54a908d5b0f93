import Foundation
import SyncServer
import TableProtocol

// Development probe: the pull page's cost inside the server, without HTTP (best of 20 batches).
let path = CommandLine.arguments[1]
let top = CommandLine.arguments.dropFirst(2).first ?? "50"
let database = try SQLiteDatabase(path: path)
let service = TableService(database: database, fixedSchema: false, limits: QueryLimits(pageSize: 50, maxTop: 1000), schemaCacheTTL: .infinity)
try await service.bootstrap()
let items = [
    URLQueryItem(name: "$filter", value: "(updatedAt ge datetimeoffset'2026-01-01T00:00:50.000Z')"),
    URLQueryItem(name: "$orderby", value: "updatedAt asc"), URLQueryItem(name: "$top", value: top),
    URLQueryItem(name: "$skip", value: "0"), URLQueryItem(name: "__includeDeleted", value: "true"),
]
func micros(_ d: Duration) -> Double { Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12 }
nonisolated func run() async throws {
    var bytes = 0
    var bestParse = Double.infinity, bestTotal = Double.infinity
    let clock = ContinuousClock()
    let batch = 2_000
    for _ in 0..<20 {
        var parse = Duration.zero, total = Duration.zero
        for _ in 0..<batch {
            let start = clock.now
            let query = try TableQuery(queryItems: items)
            let parsed = clock.now
            bytes += try await service.query(table: "bench", query).itemsJSON.count
            let end = clock.now
            parse += parsed - start
            total += end - start
        }
        bestParse = min(bestParse, micros(parse) / Double(batch))
        bestTotal = min(bestTotal, micros(total) / Double(batch))
    }
    print(String(format: "per page: %.2f µs (TableQuery %.2f µs) %d", bestTotal, bestParse, bytes % 7))
}
try await run()
