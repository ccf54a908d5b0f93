import Foundation
import ServerTestSupport
@testable import SyncServer
import Testing

/// Consecutive `$skip` pages of a large table, as a base-protocol client reads them: past the
/// first thousand rows each page seeks where the previous one ended (`SkipSeeks`), and answers
/// exactly what `OFFSET` would.
@Suite struct SkipPagingTests {
    /// A new table of 1,300 rows on `server`, written in batches (each batch one commit: its rows
    /// share an `updatedAt`), and a client.
    static func seededTable(_ server: InProcessServer) async throws -> (TableClient, String) {
        let c = TableClient(server)
        let table = uniqueTable()
        for chunk in 0..<4 {
            let operations: [[String: Any]] = (0..<325).map { i in
                let id = String(format: "r%04d", (i * 7 + chunk) % 1300 + chunk * 10_000)
                return ["method": "POST", "table": table, "body": ["id": id, "text": "row \(id)"]]
            }
            #expect(try await c.post("tables/$batch", ["operations": operations]).status == 200)
        }
        return (c, table)
    }

    /// Every page of the pull's order from `$skip=0`, 100 at a time.
    static func pages(_ c: TableClient, _ table: String, from start: Int = 0, count: Int = 13) async throws -> [[String]] {
        var pages: [[String]] = []
        for page in 0..<count {
            let reply = try await c.get("tables/\(table)", [
                ("$orderby", "updatedAt asc"), ("$top", "100"), ("$skip", "\(start + page * 100)"), ("__includeDeleted", "true"),
            ])
            #expect(reply.status == 200)
            pages.append(reply.ids)
        }
        return pages
    }

    /// The ids in the order the pages follow: by commit, then by id.
    static func expectedOrder(_ c: TableClient, _ table: String) async throws -> [String] {
        var rows: [(String, String)] = []
        var skip = 0
        while true {
            let reply = try await c.get("tables/\(table)", [("$top", "1000"), ("$skip", "\(skip)"), ("__includeDeleted", "true"), ("$select", "id,updatedAt")])
            rows += reply.array.map { ($0["updatedAt"] as! String, $0["id"] as! String) }
            if reply.array.count < 1000 { break }
            skip += 1000
        }
        return rows.sorted { $0 < $1 }.map(\.1)
    }

    @Test(arguments: Backend.allCases)
    func consecutiveDeepPagesAnswerWhatOffsetWouldAndSeek(_ backend: Backend) async throws {
        let server = try await SharedServers.shared.server(backend)
        let (c, table) = try await Self.seededTable(server)
        let seeks = server.service.skipSeeks.seeks.load(ordering: .relaxed)
        let pages = try await Self.pages(c, table)
        #expect(pages.flatMap { $0 } == (try await Self.expectedOrder(c, table)))
        // Pages at 1,000 and after (the first deep one counts OFFSET rows, the rest seek).
        #expect(server.service.skipSeeks.seeks.load(ordering: .relaxed) - seeks >= 3)
    }

    @Test(arguments: Backend.allCases)
    func aWriteBetweenDeepPagesIsSeenAsOffsetSeesIt(_ backend: Backend) async throws {
        let server = try await SharedServers.shared.server(backend)
        let (c, table) = try await Self.seededTable(server)
        let before = try await Self.pages(c, table, from: 900, count: 2)
        // A row before the next page leaves the order (an update moves it to the end).
        let moved = before[0][0]
        #expect(try await c.patch("tables/\(table)/\(moved)", ["text": "changed"]).status == 200)
        let order = try await Self.expectedOrder(c, table)
        let next = try await Self.pages(c, table, from: 1100, count: 1)
        #expect(next[0] == Array(order[1100..<1200]))
        #expect(!order[..<1100].contains(moved))
    }

    /// A key holds its query's text: long ones (padding) would make the marks hold gigabytes.
    @Test func aQueryTooLongToRememberIsNotRemembered() {
        let seeks = SkipSeeks()
        let mark = SkipSeeks.Mark(after: [.text("x")], clock: 1)
        let long = SkipSeeks.Key(owner: "", table: "t", physicalTable: "t", query: String(repeating: "a", count: SkipSeeks.longestQuery + 1), end: 1100)
        var short = long
        short.query = "$top=100"
        seeks.remember(mark, for: long)
        seeks.remember(mark, for: short)
        #expect(seeks.mark(long) == nil)
        #expect(seeks.mark(short)?.clock == 1)
    }

    @Test(arguments: Backend.allCases)
    func deepPagesOrderedByAPropertyCountOffsetRows(_ backend: Backend) async throws {
        // A server of its own: no other test's pages count as seeks here.
        try await InProcessServer.with(backend) { server in try await Self.deepPagesOrderedByAProperty(server) }
    }

    static func deepPagesOrderedByAProperty(_ server: InProcessServer) async throws {
        let (c, table) = try await seededTable(server)
        let seeks = server.service.skipSeeks.seeks.load(ordering: .relaxed)
        var ids: [String] = []
        for skip in stride(from: 1000, to: 1300, by: 100) {
            ids += try await c.get("tables/\(table)", [("$orderby", "text desc"), ("$top", "100"), ("$skip", "\(skip)")]).ids
        }
        let all = try await expectedOrder(c, table)
        #expect(ids == Array(all.sorted { "row \($0)" > "row \($1)" }[1000..<1300]))
        #expect(server.service.skipSeeks.seeks.load(ordering: .relaxed) == seeks)
    }
}
