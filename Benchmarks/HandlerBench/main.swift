import Foundation
import Logging
import SyncServer
import TableProtocol

// Development probe: what a pull page costs inside the server, without HTTP (best of 20
// batches), in time and in this process's CPU. Usage: todo-bench-handler DATABASE [TOP], where
// DATABASE is a SQLite path or a postgres:// URL, seeded as `make bench` seeds its `bench`
// table (scripts/bench.py seed_sql).
let path = CommandLine.arguments[1]
let top = CommandLine.arguments.dropFirst(2).first ?? "50"
let database: any SQLDatabase = path.hasPrefix("postgres")
    ? try await PostgresDatabase(url: path, logger: Logger(label: "bench"))
    : try SQLiteDatabase(path: path)
let service = TableService(database: database, fixedSchema: false, limits: QueryLimits(pageSize: 50, maxTop: 1000), schemaCacheTTL: .infinity)
try await service.bootstrap()

/// The incremental pull's query string, with a token `n` milliseconds into the seeded rows.
func queryString(_ n: Int) -> String {
    let token = SyncDateFormat.string(from: Date(timeIntervalSince1970: 1_767_225_650 + Double(n % 1_000) / 1_000))
    return "$filter=(updatedAt%20ge%20datetimeoffset'\(token)')&$orderby=updatedAt%20asc&$top=\(top)&$skip=0&__includeDeleted=true"
}

func micros(_ d: Duration) -> Double { Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12 }

/// This process's CPU time so far, in µs.
func cpuMicros() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
}

/// Best per-page time and CPU over 20 batches; `distinct` gives each request its own token.
nonisolated func measure(distinct: Bool) async throws -> (time: Double, cpu: Double) {
    let strings = (0..<2_000).map { queryString(distinct ? $0 : 0) }
    var best = (time: Double.infinity, cpu: Double.infinity)
    let clock = ContinuousClock()
    for _ in 0..<20 {
        let start = clock.now, cpu = cpuMicros()
        for string in strings { _ = try await service.query(table: "bench", queryString: string) }
        best.time = min(best.time, micros(clock.now - start) / Double(strings.count))
        best.cpu = min(best.cpu, (cpuMicros() - cpu) / Double(strings.count))
    }
    return best
}

let repeated = try await measure(distinct: false)
let distinct = try await measure(distinct: true)
print(String(format: "per page: %.2f µs (%.2f µs CPU) repeating one query, %.2f µs (%.2f µs CPU) with a new token each time",
             repeated.time, repeated.cpu, distinct.time, distinct.cpu))
