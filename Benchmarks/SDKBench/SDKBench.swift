import Foundation
import Synchronization
import GRDB
import OfflineSync
import TableProtocol

/// `make bench` for the SDK: pull, push and local inserts, each beside a floor measured in
/// the same run. Prints one JSON object. Usage: todo-bench-sdk SERVER_URL TABLE WORKDIR
@main
enum SDKBench {
    static func main() async throws {
        let args = CommandLine.arguments
        guard args.count == 4, let server = URL(string: args[1]) else {
            FileHandle.standardError.write(Data("usage: todo-bench-sdk SERVER_URL TABLE WORKDIR\n".utf8))
            exit(2)
        }
        let (table, workdir) = (args[2], args[3])
        var results: [String: Double] = [:]
        for pageSize in [50, 1000] {
            results["pull_\(pageSize)_s"] = try await time { try await sdkPull(server, table, pageSize, "\(workdir)/pull-\(pageSize).sqlite") }
            results["pull_\(pageSize)_floor_s"] = try await time { try await rawPull(server, table, pageSize, "\(workdir)/raw-\(pageSize).sqlite") }
        }
        // Push and local inserts: three rounds, each figure beside its floor in the same round,
        // reported by their medians (one run swings with the machine's slow moments).
        var rounds: [String: [Double]] = [:]
        for round in 0..<3 {
            let pushTable = "pushbench\(round)"
            let context = try makeContext(server, pushTable, "\(workdir)/push-\(round).sqlite", pageSize: 50)
            rounds["local_insert_10000_s", default: []].append(try await time {
                for i in 0..<10_000 { try await context.table(pushTable).insert(["id": .string("p\(i)"), "text": .string("queued \(i)"), "complete": false]) }
            })
            rounds["sqlite_raw_insert_10000_s", default: []].append(try time { try rawLocalInserts("\(workdir)/raw-local-\(round).sqlite", count: 10_000) })
            rounds["push_10000_s", default: []].append(try await time { try await context.push() })
            rounds["push_10000_floor_s", default: []].append(try await time { try await rawBatches(server, "pushfloor\(round)", count: 10_000) })
            let (merged, plain) = try await mergePush(server, "mergebench\(round)", workdir: "\(workdir)/merge-\(round)")
            rounds["merge_push_1000_s", default: []].append(merged)
            rounds["plain_update_push_1000_s", default: []].append(plain)
        }
        // Typed tables beside the dictionary form, in alternated rounds: 10,000 inserts, and a
        // 1,000-row read (20 reads each).
        for round in 0..<3 {
            let dictionary = try makeContext(server, TypedBenchRow.tableName, "\(workdir)/dict-\(round).sqlite", pageSize: 50)
            let typed = try makeContext(server, TypedBenchRow.tableName, "\(workdir)/typed-\(round).sqlite", pageSize: 50)
            rounds["dictionary_insert_10000_s", default: []].append(try await time {
                for i in 0..<10_000 { try await dictionary.table(TypedBenchRow.tableName).insert(["id": .string("p\(i)"), "text": .string("queued \(i)"), "complete": false]) }
            })
            rounds["typed_insert_10000_s", default: []].append(try await time {
                for i in 0..<10_000 { try await typed.table(TypedBenchRow.self).insert(TypedBenchRow(id: "p\(i)", text: "queued \(i)", complete: false)) }
            })
            let query = SyncQuery(table: TypedBenchRow.tableName).order(by: "id").limit(1_000)
            rounds["dictionary_read_1000_s", default: []].append(try time { for _ in 0..<20 { _ = try dictionary.table(TypedBenchRow.tableName).read(query) } } / 20)
            rounds["typed_read_1000_s", default: []].append(try time { for _ in 0..<20 { _ = try typed.table(TypedBenchRow.self).read(query) } } / 20)
        }
        for (name, times) in rounds { results[name] = times.sorted()[times.count / 2] }
        let latencies = try await liveQueryLatencies(server, table, "\(workdir)/pull-50.sqlite")
        results["live_query_p50_ms"] = latencies[latencies.count / 2] * 1000
        results["live_query_p99_ms"] = latencies[latencies.count * 99 / 100] * 1000
        let pulled = try await pulledPageLatencies(server, table, workdir)
        results["live_query_pulled_page_p50_ms"] = pulled[pulled.count / 2] * 1000
        results["live_query_pulled_page_max_ms"] = pulled.last! * 1000
        let json = results.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\(String(format: "%.4f", $0.value))" }.joined(separator: ",")
        print("{\(json)}")
    }

    /// From a committed local write to the live query's new result, 200 times, on the store the
    /// page-50 pull filled (its 100,000 rows): the query is the first 50 rows by id, which every
    /// write (an id that sorts first) changes. Seconds, sorted.
    static func liveQueryLatencies(_ server: URL, _ table: String, _ path: String) async throws -> [Double] {
        let context = try makeContext(server, table, path, pageSize: 50)
        let rows = context.table(table)
        var results = rows.observe(rows.query.order(by: "id").limit(50)).makeAsyncIterator()
        _ = try await results.next()
        var latencies: [Double] = []
        for n in 0..<200 {
            let start = ContinuousClock.now
            try await rows.insert(["id": .string(String(format: "0live%04d", n)), "text": "live", "complete": false])
            guard let result = try await results.next(), result.items.first?["id"]?.stringValue == String(format: "0live%04d", 0) else {
                throw BenchError("the live query did not see the write")
            }
            let d = ContinuousClock.now - start
            latencies.append(Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18)
        }
        return latencies.sorted()
    }

    /// From a pulled page of 1,000 rows committed (the pull's progress report) to the live
    /// query's new result, 20 times, on the store the page-1,000 pull filled (100,000 rows):
    /// another device pushes 1,000 rows whose ids sort first, this one pulls them in one page.
    /// Seconds, sorted.
    static func pulledPageLatencies(_ server: URL, _ table: String, _ workdir: String) async throws -> [Double] {
        let context = try makeContext(server, table, "\(workdir)/pull-1000.sqlite", pageSize: 1000)
        let writer = try makeContext(server, table, "\(workdir)/page-writer.sqlite", pageSize: 1000)
        let rows = context.table(table)
        try await rows.pull(queryId: "live-page")  // not timed: catches up with everything before
        let arrived = Mutex<[String: ContinuousClock.Instant]>([:])
        let watcher = Task {
            for try await result in rows.observe(rows.query.order(by: "id").limit(50)) {
                let first = result.items.first?[SystemProperty.id]?.stringValue ?? ""
                arrived.withLock { if $0[first] == nil { $0[first] = ContinuousClock.now } }
            }
        }
        defer { watcher.cancel() }
        var latencies: [Double] = []
        for round in 0..<20 {
            let prefix = String(format: "00page%02d", 19 - round)  // each round's rows sort before the last round's
            for i in 0..<1_000 { try await writer.table(table).insert(["id": .string(prefix + String(format: "%04d", i)), "text": "pulled", "complete": false]) }
            try await writer.push()
            let committed = Mutex<ContinuousClock.Instant?>(nil)
            try await rows.pull(queryId: "live-page") { progress in
                if progress.received >= 1_000 { committed.withLock { $0 = $0 ?? ContinuousClock.now } }
            }
            let marker = prefix + "0000"
            let deadline = ContinuousClock.now + .seconds(5)
            while arrived.withLock({ $0[marker] }) == nil {
                guard ContinuousClock.now < deadline else { throw BenchError("the live query did not see the pulled page") }
                try await Task.sleep(for: .milliseconds(1))
            }
            guard let start = committed.withLock({ $0 }), let end = arrived.withLock({ $0[marker] }) else { throw BenchError("no page report") }
            let d = end - start
            latencies.append(max(0, Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18))
        }
        return latencies.sorted()
    }

    static func time(_ body: @Sendable () async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        try await body()
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    static func time(_ body: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try body()
        let d = ContinuousClock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    /// Pushing 1,000 updates that all meet a mergeable conflict (another device changed another
    /// field of each item), and then 1,000 updates of the same items that meet none.
    static func mergePush(_ server: URL, _ table: String, workdir: String) async throws -> (merged: Double, plain: Double) {
        try FileManager.default.createDirectory(atPath: workdir, withIntermediateDirectories: true)
        let a = try makeContext(server, table, "\(workdir)/a.sqlite", pageSize: 1000, mergePolicy: .fieldMerge)
        // B pushes one request per operation, as before batches, so the ratio compares one merge with one plain update.
        let b = try makeContext(server, table, "\(workdir)/b.sqlite", pageSize: 1000, mergePolicy: .fieldMerge, delegate: OneRequestEach())
        let ids = (0..<1_000).map { "m\($0)" }
        for id in ids { try await a.table(table).insert(["id": .string(id), "text": .string("item \(id)"), "complete": false]) }
        try await a.push()
        try await b.table(table).pull(queryId: "bench")
        for id in ids { try await a.table(table).update(["id": .string(id), "text": .string("renamed \(id)")]) }
        try await a.push()
        for id in ids { try await b.table(table).update(["id": .string(id), "complete": true]) }
        let merged = try await time { try await b.push() }
        guard try b.conflictLog(limit: 2_000).count == 1_000 else { throw BenchError("the merge push did not merge 1,000 items") }
        for id in ids { try await b.table(table).update(["id": .string(id), "complete": false]) }
        let plain = try await time { try await b.push() }
        return (merged, plain)
    }

    static func makeContext(_ server: URL, _ table: String, _ path: String, pageSize: Int, mergePolicy: MergePolicy = .askAlways,
                            delegate: (any SyncContextDelegate)? = nil) throws -> SyncContext {
        let store = try SQLiteSyncStore(path: path, tables: [SyncTableDefinition(name: table, columns: ["text": .text, "complete": .boolean],
                                                                                 mergePolicy: mergePolicy)])
        let client = SyncClient(serverURL: server, configuration: SyncClientConfiguration(installationID: "bench"))
        return SyncContext(client: client, dataSource: store, delegate: delegate, pullPageSize: pageSize)
    }

    /// The SDK: an incremental pull into an empty store.
    static func sdkPull(_ server: URL, _ table: String, _ pageSize: Int, _ path: String) async throws {
        let context = try makeContext(server, table, path, pageSize: pageSize)
        try await context.table(table).pull(queryId: "bench")
        let count = try context.table(table).read(SyncQuery(table: table).withTotalCount()).totalCount ?? 0
        guard count >= 100_000 else { throw BenchError("SDK pull stored \(count) rows") }
    }

    /// The floor: the same page requests over the SDK's transport (AsyncHTTPClient), each page inserted with one raw
    /// SQLite transaction of cached statements.
    static func rawPull(_ server: URL, _ table: String, _ pageSize: Int, _ path: String) async throws {
        let db = try rawDatabase(path)
        try await db.write { try $0.execute(sql: "CREATE TABLE IF NOT EXISTS rows (id TEXT PRIMARY KEY, version TEXT, createdAt TEXT, updatedAt TEXT, deleted BOOLEAN, text TEXT, complete BOOLEAN)") }
        let transport = AsyncHTTPClientTransport()
        var token = "1970-01-01T00:00:00.000Z"
        var skip = 0
        var total = 0
        while true {
            var components = URLComponents(url: server.appendingPathComponent("tables/\(table)"), resolvingAgainstBaseURL: false)!
            components.queryItems = [
                URLQueryItem(name: "$filter", value: "(updatedAt ge datetimeoffset'\(token)')"),
                URLQueryItem(name: "$orderby", value: "updatedAt asc"), URLQueryItem(name: "$top", value: "\(pageSize)"),
                URLQueryItem(name: "$skip", value: "\(skip)"), URLQueryItem(name: "__includeDeleted", value: "true"),
            ]
            let data = try await transport.send(HTTPRequestSpec(method: "GET", url: components.url!, headers: ["ZUMO-API-VERSION": "2.0.0"], body: nil)).body
            // The same JSON parser the SDK uses, so the ratio measures the SDK and not the parser.
            guard case .array(let page) = try JSONValue.parse(data) else { throw BenchError("bad page") }
            let rows = page.compactMap(\.objectValue)
            if rows.isEmpty { break }
            let values: [[DatabaseValue]] = rows.map { row in
                [row[SystemProperty.id]?.stringValue.databaseValue ?? .null, row[SystemProperty.version]?.stringValue.databaseValue ?? .null,
                 row[SystemProperty.createdAt]?.stringValue.databaseValue ?? .null, row[SystemProperty.updatedAt]?.stringValue.databaseValue ?? .null,
                 row[SystemProperty.deleted]?.boolValue.databaseValue ?? .null, row["text"]?.stringValue.databaseValue ?? .null,
                 row["complete"]?.boolValue.databaseValue ?? .null]
            }
            try insertPage(values, into: db)
            total += rows.count
            let newest = rows.compactMap { $0[SystemProperty.updatedAt]?.stringValue }.max()!
            if newest > token { token = newest; skip = 0 } else { skip += rows.count }
        }
        guard total >= 100_000 else { throw BenchError("raw pull fetched \(total) rows") }
    }

    /// One raw transaction of cached statements, on the calling thread (as the SDK writes).
    static func insertPage(_ values: [[DatabaseValue]], into db: DatabasePool) throws {
        try db.write { db in
            let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO rows VALUES (?, ?, ?, ?, ?, ?, ?)")
            for row in values { try statement.execute(arguments: StatementArguments(row)) }
        }
    }

    /// Raw SQLite with the SDK store's durability settings (WAL, synchronous=NORMAL), so the
    /// floor is not slowed by an fsync per commit that the SDK does not pay.
    static func rawDatabase(_ path: String) throws -> DatabasePool {
        var config = Configuration()
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        return try DatabasePool(path: path, configuration: config)
    }

    /// The floor for push: the same batches (500 inserts each, as the SDK chunks them) sent raw
    /// over the SDK's transport, one after another, each body built beforehand.
    static func rawBatches(_ server: URL, _ table: String, count: Int) async throws {
        let transport = AsyncHTTPClientTransport()
        let bodies = stride(from: 0, to: count, by: 500).map { start in
            let operations = (start..<min(start + 500, count)).map { i in
                #"{"table":"\#(table)","method":"POST","body":{"id":"f\#(i)","text":"queued \#(i)","complete":false}}"#
            }
            return Data(#"{"operations":[\#(operations.joined(separator: ","))]}"#.utf8)
        }
        for body in bodies {
            let reply = try await transport.send(HTTPRequestSpec(
                method: "POST", url: server.appendingPathComponent("tables/$batch"),
                headers: ["ZUMO-API-VERSION": "2.0.0", "Content-Type": "application/json"], body: body))
            guard reply.status == 200, !String(decoding: reply.body, as: UTF8.self).contains(#""status":4"#) else {
                throw BenchError("raw batch failed")
            }
        }
    }

    /// Raw SQLite: the same 10,000 rows, one statement each, one transaction each (like local inserts).
    static func rawLocalInserts(_ path: String, count: Int) throws {
        let db = try rawDatabase(path)
        try db.write { try $0.execute(sql: "CREATE TABLE rows (id TEXT PRIMARY KEY, text TEXT, complete BOOLEAN)") }
        for i in 0..<count {
            try db.write { db in
                try db.cachedStatement(sql: "INSERT INTO rows VALUES (?, ?, ?)").execute(arguments: ["r\(i)", "queued \(i)", false])
            }
        }
    }
}

/// The typed form of the bench's rows.
struct TypedBenchRow: SyncRecord {
    static let tableName = "typedbench"
    var id: String
    var text: String
    var complete: Bool
}

/// A delegate that keeps the default `tableOperation` hook, so its pushes send one request per operation.
final class OneRequestEach: SyncContextDelegate {}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
