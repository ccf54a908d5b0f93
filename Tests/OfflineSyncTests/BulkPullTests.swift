import Foundation
import GRDB
@testable import OfflineSync
import OfflineSyncURLSession
import ServerTestSupport
import TableProtocol
import Testing

/// A large pull into an empty table loads it in bulk: the text-search index is rebuilt once at
/// the end instead of row by row. Searches must answer exactly as before, during and after, and
/// however the pull ends.
@Suite struct BulkPullTests {
    static let rows = 230  // five pages of 50: the first is full, so the pull is a bulk load

    static func definition(_ table: String) -> SyncTableDefinition {
        SyncTableDefinition(name: table, columns: ["text": .text, "complete": .boolean], searchable: ["text"])
    }

    /// A device with its own store of `table` (searchable text), pulling pages of 50.
    static func device(_ table: String, server: URL, path: String? = nil, transport: (any HTTPTransport)? = nil) throws -> (SQLiteSyncStore, SyncContext) {
        let store = try SQLiteSyncStore(path: path ?? TempDir.make().appendingPathComponent("d.sqlite").path, tables: [definition(table)])
        let client = SyncClient(serverURL: server, configuration: SyncClientConfiguration(timeout: 5, transport: transport))
        return (store, SyncContext(client: client, dataSource: store, pullPageSize: 50))
    }

    /// A table on the shared server holding `rows` items "item N", pushed by another device.
    static func seeded() async throws -> (table: String, server: URL) {
        let table = "bulk" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10).lowercased()
        let server = try await SharedServerProcess.shared.get().baseURL
        let (_, writer) = try device(table, server: server)
        for i in 0..<rows { try await writer.table(table).insert(["id": .string("i\(i)"), "text": .string("item \(i)"), "complete": false]) }
        try await writer.push()
        return (table, server)
    }

    /// Ids whose text contains `needle`, as the store answers (sorted).
    static func search(_ store: SQLiteSyncStore, _ table: String, _ needle: String) throws -> [String] {
        try store.read { try $0.items(SyncQuery(table: table).filter(Field("text").contains(.string(needle)))) }
            .items.compactMap { $0["id"]?.stringValue }.sorted()
    }

    /// What a scan answers: ids of "item N" texts containing `needle`.
    static func expected(_ needle: String, rows: Int = rows) -> [String] {
        (0..<rows).filter { "item \($0)".contains(needle) }.map { "i\($0)" }.sorted()
    }

    @Test func aFirstPullOfManyPagesLeavesSearchExact() async throws {
        let (table, server) = try await Self.seeded()
        let (store, context) = try Self.device(table, server: server)
        try await context.table(table).pull(queryId: "all")
        for needle in ["item 12", "item 2", "m 19", "item 229"] {
            #expect(try Self.search(store, table, needle) == Self.expected(needle), "\(needle)")
        }
    }

    @Test func itemsWrittenAfterABulkPullAreSearchable() async throws {
        let (table, server) = try await Self.seeded()
        let (store, context) = try Self.device(table, server: server)
        try await context.table(table).pull(queryId: "all")
        try await context.table(table).insert(["id": .string("new"), "text": .string("freshly typed"), "complete": false])
        try await context.table(table).update(["id": .string("i7"), "text": .string("renamed seven"), "complete": false])
        #expect(try Self.search(store, table, "freshly") == ["new"])
        #expect(try Self.search(store, table, "renamed") == ["i7"])
        #expect(try Self.search(store, table, "item 7") == Self.expected("item 7").filter { $0 != "i7" })
    }

    @Test func aBulkPullCutOffHalfWayLeavesSearchExactForWhatArrived() async throws {
        let (table, server) = try await Self.seeded()
        let transport = FirstPagesOnly(pages: 2)
        let (store, context) = try Self.device(table, server: server, transport: transport)
        await #expect(throws: SyncError.self) { try await context.table(table).pull(queryId: "all") }
        let arrived = try store.read { try $0.items(SyncQuery(table: table)) }.items.compactMap { $0["id"]?.stringValue }
        #expect(arrived.count >= 50 && arrived.count < Self.rows, "the first page or two, not all")
        let needle = "item 1"
        #expect(try Self.search(store, table, needle) == Self.expected(needle).filter(arrived.contains))
        try await context.table(table).insert(["id": .string("later"), "text": .string("typed while offline"), "complete": false])
        #expect(try Self.search(store, table, "while offline") == ["later"])
    }

    @Test func aStoreLeftMidBulkLoadByACrashRebuildsItsIndexWhenOpened() async throws {
        let path = try TempDir.make().appendingPathComponent("crashed.sqlite").path
        let table = "crashed"
        do {
            let store = try SQLiteSyncStore(path: path, tables: [Self.definition(table)])
            try store.write { try $0.upsert([["id": .string("a"), "text": .string("before the crash"), "complete": false]], in: table, space: nil) }
        }
        // What a process killed during a bulk load leaves: the index's triggers gone, rows written without them.
        let raw = try DatabaseQueue(path: path)
        try await raw.write { db in
            for trigger in ["insert", "delete", "update"] { try db.execute(sql: "DROP TRIGGER \"MS_Search_\(table)_\(trigger)\"") }
            try db.execute(sql: "INSERT INTO \"\(table)\" (id, text, complete) VALUES ('b', 'during the load', 0)")
        }
        try raw.close()
        let reopened = try SQLiteSyncStore(path: path, tables: [Self.definition(table)])
        #expect(try Self.search(reopened, table, "during the") == ["b"])
        #expect(try Self.search(reopened, table, "before the") == ["a"])
        try reopened.write { try $0.upsert([["id": .string("c"), "text": .string("after reopening"), "complete": false]], in: table, space: nil) }
        #expect(try Self.search(reopened, table, "after reopen") == ["c"])
    }

    @Test func aSmallFirstPullIsNoBulkLoadAndStaysExact() async throws {
        let table = "small" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10).lowercased()
        let server = try await SharedServerProcess.shared.get().baseURL
        let (_, writer) = try Self.device(table, server: server)
        for i in 0..<3 { try await writer.table(table).insert(["id": .string("i\(i)"), "text": .string("item \(i)"), "complete": false]) }
        try await writer.push()
        let (store, context) = try Self.device(table, server: server)
        try await context.table(table).pull(queryId: "all")
        #expect(try Self.search(store, table, "item 1") == ["i1"])
    }
}

/// The real transport, until the table's pages stop coming: after `pages` page requests every
/// further one fails as if the network dropped.
final class FirstPagesOnly: HTTPTransport, @unchecked Sendable {
    private let real = URLSessionTransport(timeout: 5)
    private let lock = NSLock()
    private var left: Int

    init(pages: Int) { left = pages }

    func send(_ request: HTTPRequestSpec) async throws -> HTTPReply {
        if request.method == "GET", request.url.path.hasPrefix("/tables/") {
            let allowed = lock.withLock { left -= 1; return left >= 0 }
            if !allowed { throw TransportError(description: "network is unreachable") }
        }
        return try await real.send(request)
    }
}
