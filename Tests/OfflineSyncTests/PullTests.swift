import Foundation
import OfflineSync
import ServerTestSupport
import Synchronization
import TableProtocol
import Testing

/// Pull against a real todo-server: pages, incremental tokens, deletes, pending items, purge.
@Suite struct PullTests {
    /// The next page is fetched while this one is stored, in a task of its own: cancelling the
    /// pull must reach it, and no page is asked for after.
    @Test(arguments: [nil, "all"] as [String?])
    func aPullCancelledWhileAPageIsOnItsWayAsksForNoMore(queryId: String?) async throws {
        let (table, server) = try await BulkPullTests.seeded()
        let transport = FaultyTransport()
        let (_, context) = try BulkPullTests.device(table, server: server, transport: transport)
        let pulling = Mutex<Task<Void, any Error>?>(nil)
        // The pull is cancelled as its second page is asked for (fetched ahead, with a query id).
        transport.before("GET", endingWith: "/tables/\(table)", number: 2) { pulling.withLock { $0?.cancel() } }
        let (start, go) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            for await _ in start { break }
            try await context.table(table).pull(queryId: queryId)
        }
        pulling.withLock { $0 = task }
        go.yield()
        await #expect(throws: (any Error).self) { try await task.value }
        let pages = transport.requests.filter { $0 == "GET /tables/\(table)" }
        #expect(pages.count == 2, "\(transport.requests)")
    }

    func seed(_ f: SyncFixture, count: Int, prefix: String = "s") async throws {
        for i in 0..<count { _ = try await f.remote.insert(todo(String(format: "\(prefix)%03d", i), "server \(i)")) }
    }

    /// A fixture on a server of its own whose `count` seeded rows share one `updatedAt` (imported
    /// data can; the server never makes that itself). The caller stops the server.
    func fixtureSharingOneTimestamp(count: Int, pageSize: Int, transport: FaultyTransport? = nil) async throws -> (SyncFixture, ServerProcess) {
        let database = try TempDir.make().appendingPathComponent("s.sqlite").path
        let server = try await ServerProcess.start(arguments: ["--database", database])
        do {
            let f = try await SyncFixture.make(server: server, transport: transport, pageSize: pageSize)
            try await seed(f, count: count)
            try SQLiteShell.run(database, "UPDATE \"\(try SQLiteShell.physicalTable(database, f.table))\" SET \"updatedAt\" = '2026-03-03T03:03:03.333Z'")
            return (f, server)
        } catch {
            server.stop()
            throw error
        }
    }

    @Test func pullFetchesEveryPage() async throws {
        let f = try await SyncFixture.make(pageSize: 7)
        try await seed(f, count: 30)
        try await f.local.pull()
        #expect(try f.local.read(f.local.query.withTotalCount()).totalCount == 30)
    }

    @Test func pullReportsItsProgressWithTheTotalCountedOnTheFirstPage() async throws {
        let f = try await SyncFixture.make(pageSize: 50)
        try await seed(f, count: 120)
        let seen = Mutex<[PullProgress]>([])
        try await f.local.pull(queryId: "all") { progress in seen.withLock { $0.append(progress) } }
        let reports = seen.withLock { $0 }
        #expect(reports.first == PullProgress(received: 50, total: 120))
        #expect(reports.allSatisfy { $0.total == 120 })
        // Rows read again after the token moves (same timestamp) do not count twice.
        #expect(reports.map(\.received) == reports.map(\.received).sorted())
        #expect(reports.last?.received == 120)
    }

    @Test func aPageLargerThanTheServerAllowsIsCutToItsLimit() async throws {
        let server = try await ServerProcess.start(arguments: ["--database", try TempDir.make().appendingPathComponent("s.sqlite").path,
                                                               "--page-size", "20", "--max-top", "40"])
        defer { server.stop() }
        let f = try await SyncFixture.make(server: server, pageSize: 1_000)
        try await seed(f, count: 90)
        try await f.local.pull(queryId: "all")
        #expect(try f.local.read(f.local.query.withTotalCount()).totalCount == 90)
    }

    @Test func pullHonoursFetchLimitAndOffset() async throws {
        let f = try await SyncFixture.make(pageSize: 4)
        try await seed(f, count: 20)
        try await f.local.pull(f.local.query.order(by: "id").offset(5).limit(9))
        let ids = try f.local.read(f.local.query.order(by: "id")).items.compactMap { $0["id"]?.stringValue }
        #expect(ids == (5..<14).map { String(format: "s%03d", $0) })
    }

    @Test func pullWithAFilterFetchesOnlyMatchingRows() async throws {
        let f = try await SyncFixture.make()
        _ = try await f.remote.insert(todo("a", "open"))
        _ = try await f.remote.insert(todo("b", "done", complete: true))
        try await f.local.pull(f.local.query.filter(Field("complete") == false))
        #expect(try f.local.read(id: "a") != nil)
        #expect(try f.local.read(id: "b") == nil)
    }

    @Test func incrementalPullSavesTheTokenAndFetchesOnlyNewerChanges() async throws {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport, pageSize: 10)
        try await seed(f, count: 25)
        try await f.local.pull(queryId: "all")
        #expect(try f.local.read(f.local.query.withTotalCount()).totalCount == 25)
        _ = try await f.remote.insert(todo("late", "newer"))
        let before = transport.requests.filter { $0.hasPrefix("GET") }.count
        try await f.local.pull(queryId: "all")
        #expect(try f.local.read(id: "late") != nil)
        // The row at the token and the new row, in one page: not the 25 old rows again.
        #expect(transport.requests.filter { $0.hasPrefix("GET") }.count - before <= 2)
    }

    @Test func incrementalPullReceivesEveryRowWhen120RowsShareOneTimestamp() async throws {
        let (f, server) = try await fixtureSharingOneTimestamp(count: 120, pageSize: 25)
        defer { server.stop() }
        try await f.local.pull(queryId: "shared")
        #expect(try f.local.read(f.local.query.withTotalCount()).totalCount == 120)
    }

    @Test func incrementalPullMissesNoChangeMadeBetweenItsPages() async throws {
        let transport = FaultyTransport()
        let (f, server) = try await fixtureSharingOneTimestamp(count: 4, pageSize: 3, transport: transport)
        defer { server.stop() }
        try await f.local.pull(queryId: "q")
        // After the pull's first page (three of the four rows at its token), s000 changes and a row
        // is added: s000 leaves the rows a $skip of 3 would step over, and s001..s003 move into them.
        transport.before("GET", endingWith: "/tables/\(f.table)", number: 2) {
            let row = try await f.remote.read(id: "s000")
            _ = try await f.remote.update(["id": "s000", "text": "changed meanwhile", "version": row["version"]!])
            _ = try await f.remote.insert(todo("late", "added meanwhile"))
        }
        try await f.local.pull(queryId: "q")
        #expect(try f.local.read(id: "late") != nil)
        #expect(try f.local.read(id: "s000")?["text"] == "changed meanwhile")
    }

    /// The page requests of an incremental pull of 25 new rows by pages of 10, through `transport`.
    func pageRequests(pulling25By10 transport: FaultyTransport) async throws -> Int {
        let f = try await SyncFixture.make(transport: transport, pageSize: 10)
        try await seed(f, count: 25)
        try await f.local.pull(queryId: "all")
        #expect(try f.local.read(f.local.query.withTotalCount()).totalCount == 25)
        return transport.requests.filter { $0 == "GET /tables/\(f.table)" }.count
    }

    @Test func anIncrementalPullEndsOnThePageTheServerSaysIsTheLast() async throws {
        // 10, 10 and 5 rows: the last page says no more remain, and no empty page follows.
        #expect(try await pageRequests(pulling25By10: FaultyTransport()) == 3)
    }

    @Test func aFullPageWithoutANextLinkIsNotTakenForTheLast() async throws {
        let transport = FaultyTransport()
        transport.dropHeader("link")  // as a proxy passing only the headers it knows might
        #expect(try await pageRequests(pulling25By10: transport) == 3)
    }

    @Test func aPullFromAServerThatSaysNothingOfMorePagesEndsOnAnEmptyPage() async throws {
        let transport = FaultyTransport()
        transport.fail(path: "/capabilities", with: .status404)  // as the Azure servers answer
        // 10, 10 (from the token's row on) and 7 rows, the token's row alone, then an empty page.
        #expect(try await pageRequests(pulling25By10: transport) == 5)
    }

    @Test func aServerWithoutKeysetPagingIsPagedBySkipAndStillYieldsEveryRow() async throws {
        let transport = FaultyTransport()
        transport.fail(path: "/capabilities", with: .status404)  // as the Azure servers answer
        let (f, server) = try await fixtureSharingOneTimestamp(count: 120, pageSize: 25, transport: transport)
        defer { server.stop() }
        try await f.local.pull(queryId: "shared")
        #expect(try f.local.read(f.local.query.withTotalCount()).totalCount == 120)
    }

    /// Rows received by one pull, as its progress reports count them.
    func received(pulling f: SyncFixture, queryId: String) async throws -> Int {
        let seen = Mutex(0)
        try await f.local.pull(queryId: queryId) { progress in seen.withLock { $0 = progress.received } }
        return seen.withLock { $0 }
    }

    @Test func aPullAfterAPushDoesNotDownloadTheDevicesOwnWritesAgain() async throws {
        let f = try await SyncFixture.make()
        try await f.local.pull(queryId: "all")
        for i in 0..<30 { try await f.local.insert(todo("mine\(i)", "mine")) }
        try await f.context.push()
        _ = try await f.remote.insert(todo("theirs", "another device's"))
        #expect(try await received(pulling: f, queryId: "all") == 1)
        #expect(try f.local.read(id: "theirs") != nil)
        #expect(try f.local.read(f.local.query.withTotalCount()).totalCount == 31)
    }

    @Test func anotherDevicesWriteBetweenTwoOfOurPushesStillArrives() async throws {
        let f = try await SyncFixture.make()
        try await f.local.pull(queryId: "all")
        try await f.local.insert(todo("a", "mine"))
        try await f.local.insert(todo("b", "mine"))
        try await f.context.push()
        _ = try await f.remote.insert(todo("theirs", "between our pushes"))
        let row = try await f.remote.read(id: "a")
        _ = try await f.remote.update(["id": "a", "text": "edited elsewhere", "version": row["version"]!])
        try await f.local.insert(todo("c", "mine"))
        try await f.local.insert(todo("d", "mine"))
        try await f.context.push()
        try await f.local.pull(queryId: "all")
        #expect(try f.local.read(id: "theirs") != nil)
        #expect(try f.local.read(id: "a")?["text"] == "edited elsewhere")
    }

    @Test func theNextPullStartsPastTheDevicesOwnWrites() async throws {
        let f = try await SyncFixture.make()
        for i in 0..<30 { try await f.local.insert(todo("mine\(i)", "mine")) }
        try await f.local.pull(queryId: "all")
        #expect(try await received(pulling: f, queryId: "all") == 0)
        _ = try await f.remote.insert(todo("theirs", "later"))
        #expect(try await received(pulling: f, queryId: "all") == 1)
    }

    @Test func aPurgedTableDownloadsItsOwnWritesAgain() async throws {
        let f = try await SyncFixture.make()
        for i in 0..<5 { try await f.local.insert(todo("mine\(i)", "mine")) }
        try await f.context.push()
        try await f.local.purge(queryId: "all")
        try await f.local.pull(queryId: "all")
        #expect(try f.local.read(f.local.query.withTotalCount()).totalCount == 5)
    }

    @Test func pulledDeletesRemoveLocalRows() async throws {
        let f = try await SyncFixture.make()
        try await seed(f, count: 3)
        try await f.local.pull(queryId: "q")
        let row = try await f.remote.read(id: "s001")
        _ = try await f.remote.delete(row)
        try await f.local.pull(queryId: "q")
        #expect(try f.local.read(id: "s001") == nil)
        #expect(try f.local.read(id: "s000") != nil)
    }

    @Test func itemsWithPendingChangesAreNotOverwrittenByPull() async throws {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport)
        try await seed(f, count: 2)
        try await f.local.pull()
        let serverRow = try await f.remote.read(id: "s000")
        _ = try await f.remote.update(["id": "s000", "text": "server changed", "version": serverRow["version"]!])
        // The implicit push fails, so the pull is refused and the local edit stays.
        transport.fail("PATCH", with: .status500)
        try await f.local.update(["id": "s000", "text": "local edit"])
        await #expect(throws: SyncError.self) { try await f.local.pull() }
        #expect(try f.local.read(id: "s000")?["text"] == "local edit")
    }

    @Test func pullPushesPendingChangesFirst() async throws {
        let f = try await SyncFixture.make()
        try await f.local.insert(todo("mine", "local"))
        try await f.local.pull()
        #expect(try await f.serverItems()["mine"]?["text"] == "local")
        #expect(f.context.pendingOperationsCount == 0)
    }

    @Test func incrementalPullRefusesItsOwnOrderAndLimit() async throws {
        let f = try await SyncFixture.make()
        await #expect(throws: SyncError.self) { try await f.local.pull(f.local.query.order(by: "text"), queryId: "q") }
        await #expect(throws: SyncError.self) { try await f.local.pull(f.local.query.limit(5), queryId: "q") }
    }

    @Test func purgeRemovesMatchingRowsAndResetsTheToken() async throws {
        let transport = FaultyTransport()
        let f = try await SyncFixture.make(transport: transport)
        try await seed(f, count: 5)
        try await f.local.pull(queryId: "q")
        try await f.local.purge(queryId: "q")
        #expect(try f.local.read(f.local.query.withTotalCount()).totalCount == 0)
        try await f.local.pull(queryId: "q")
        #expect(try f.local.read(f.local.query.withTotalCount()).totalCount == 5)
    }

    @Test func purgeIsRefusedWhileChangesArePending() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        try await f.local.insert(todo("a", "pending"))
        do {
            try await f.local.purge()
            Issue.record("purge should be refused")
        } catch let error as SyncError {
            #expect(error.code == .purgeAbortedPendingChanges)
        }
        #expect(try f.local.read(id: "a") != nil)
    }

    @Test func forcePurgeRemovesRowsOperationsAndTokens() async throws {
        let f = try await SyncFixture.make()
        try await seed(f, count: 2)
        try await f.local.pull(queryId: "q")
        try await f.local.insert(todo("pending", "x"))
        try await f.local.forcePurge()
        #expect(f.context.pendingOperationsCount == 0)
        #expect(try f.local.read(f.local.query.withTotalCount()).totalCount == 0)
    }
}

/// Writes straight into a server's SQLite file, as an import would.
enum SQLiteShell {
    static func run(_ path: String, _ sql: String) throws {
        _ = try query(path, sql)
    }

    /// Runs `sql`; its output, one line per row.
    static func query(_ path: String, _ sql: String) throws -> [String] {
        let child = try ChildProcess("sqlite3", ["-cmd", ".timeout 5000", path, sql], captureOutput: true)
        let output = String(decoding: child.standardOutput!.readDataToEndOfFile(), as: UTF8.self)
        guard child.wait() == 0 else { throw SyncError(.localStoreError, "sqlite3 failed") }
        return output.split(separator: "\n").map(String.init)
    }

    /// The physical table that holds the anonymous namespace's `table` (the server's catalog).
    static func physicalTable(_ path: String, _ table: String) throws -> String {
        guard let physical = try query(path, #"SELECT "physical" FROM "__tables" WHERE "ns" = '' AND "tbl" = '\#(table.lowercased())'"#).first else {
            throw SyncError(.localStoreError, "no table \(table) on the server")
        }
        return physical
    }
}
