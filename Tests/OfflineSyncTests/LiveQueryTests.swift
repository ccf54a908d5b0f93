import Foundation
import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// `table.observe(query)`: the current result at once, then a new one after every committed
/// change that can affect it, whatever made it.
@Suite struct LiveQueryTests {
    func fixture(server: ServerProcess? = nil) throws -> SyncFixture {
        try SyncFixture(table: TypedTask.tableName, storePath: TempDir.make().appendingPathComponent("local.sqlite").path, serverURL: server?.baseURL)
    }

    @Test func theCurrentResultComesFirst() async throws {
        let f = try fixture()
        let tasks = f.context.table(TypedTask.self)
        try await tasks.insert(TypedTask(id: "a", text: "milk"))
        var results = tasks.observe().makeAsyncIterator()
        #expect(try await results.next()?.map(\.id) == ["a"])
    }

    /// The app's keys and frames come first when the cores are busy: a read after a commit only
    /// replaces a result already shown. (libdispatch on Linux runs background work at nice 10;
    /// the test needs a process that is not niced itself.)
    @Test(.enabled(if: ProcessNice.mainThread.map { $0 < 10 } ?? false, "needs /proc and a process below nice 10"))
    func aReadAfterACommitRunsBelowTheAppsPriorityAndTheFirstAtIt() async throws {
        let f = try fixture()
        var nices = f.local.observe(reading: { ProcessNice.thisThread() }).makeAsyncIterator()
        #expect(try #require(try await nices.next() ?? nil) < 10)
        _ = try await f.local.insert(todo("a", "milk"))
        #expect(try #require(try await nices.next() ?? nil) >= 10)
    }

    @Test func aLocalWriteYieldsTheNewResult() async throws {
        let f = try fixture()
        let tasks = f.context.table(TypedTask.self)
        var results = tasks.observe(tasks.query.order(by: "id")).makeAsyncIterator()
        #expect(try await results.next()?.isEmpty == true)
        try await tasks.insert(TypedTask(id: "a", text: "milk"))
        #expect(try await results.next()?.map(\.id) == ["a"])
        try await tasks.update(TypedTask(id: "a", text: "oat milk"))
        #expect(try await results.next()?.map(\.text) == ["oat milk"])
    }

    @Test func aPullYieldsTheNewResult() async throws {
        let server = try await ServerProcess.start(arguments: ["--database", TempDir.make().appendingPathComponent("s.sqlite").path])
        defer { _ = server.stop() }
        let f = try fixture(server: server)
        _ = try await f.remote.insert(todo("from-server", "pulled"))
        var results = f.context.table(TypedTask.self).observe().makeAsyncIterator()
        #expect(try await results.next()?.isEmpty == true)
        try await f.local.pull()
        #expect(try await results.next()?.map(\.id) == ["from-server"])
    }

    @Test func changesCommittedTogetherYieldOneResult() async throws {
        let f = try fixture()
        var results = f.local.observe().makeAsyncIterator()
        #expect(try await results.next()?.items.isEmpty == true)
        try f.local.transaction { transaction in
            for n in 0..<100 { _ = try transaction.insert(todo("t\(n)", "bulk \(n)")) }
        }
        #expect(try await results.next()?.items.count == 100, "never a part of the transaction")
    }

    @Test func aSlowConsumerGetsTheNewestResultNotABacklog() async throws {
        let f = try fixture()
        let tasks = f.context.table(TypedTask.self)
        var results = tasks.observe().makeAsyncIterator()
        #expect(try await results.next()?.isEmpty == true)
        for n in 0..<20 { try await tasks.insert(TypedTask(id: "t\(n)", text: "\(n)")) }
        try await Task.sleep(for: .milliseconds(300))  // the observer reads while nobody consumes
        // At most one older result waits (on a busy machine the newest read may still be on its
        // way), never one per commit.
        var received = 0, count = 0
        repeat {
            count = try #require(try await results.next()).count
            received += 1
        } while count < 20
        #expect(count == 20)
        #expect(received <= 2, "\(received) results for 20 commits")
    }

    @Test func anUndoAndAPurgeYieldTheirResults() async throws {
        let f = try fixture()
        let tasks = f.context.table(TypedTask.self)
        try await tasks.insert(TypedTask(id: "a", text: "milk"))
        try await tasks.insert(TypedTask(id: "b", text: "bread"))
        var results = tasks.observe(tasks.query.order(by: "id")).makeAsyncIterator()
        #expect(try await results.next()?.map(\.id) == ["a", "b"])
        _ = try f.context.undo()
        #expect(try await results.next()?.map(\.id) == ["a"])
        try await tasks.untyped.forcePurge()
        #expect(try await results.next()?.isEmpty == true)
    }
}

/// Nice values of this process's threads, from /proc (nil where there is none).
enum ProcessNice {
    /// The calling thread's.
    static func thisThread() -> Int? { read("/proc/thread-self/stat") }
    /// The main thread's, which the process started with.
    static var mainThread: Int? { read("/proc/self/stat") }

    /// Field 19 of a stat line, counted after the parenthesised name (which may hold spaces).
    private static func read(_ path: String) -> Int? {
        guard let stat = try? String(contentsOfFile: path, encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")  // fields[0] is field 3
        return fields.count > 16 ? Int(fields[16]) : nil
    }
}
