import Foundation
import OfflineSync
import TableProtocol
import Testing

/// `forEachChunk`: a query's whole result a few hundred items at a time, for output of any size.
@Suite struct ChunkedReadTests {
    func items(_ count: Int) -> [JSONObject] {
        (0..<count).map { n in todo(String(format: "item-%04d", n), "text \(String(format: "%04d", (n * 7919) % count))", complete: n % 3 == 0) }
    }

    @Test func theChunksTogetherAreTheQuerysWholeResultInItsOrder() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        try f.local.transaction { writes in for item in items(1_100) { _ = try writes.insert(item) } }
        let query = f.local.query.filter(Field("complete") == false).order(by: "text")
        var chunks: [[JSONObject]] = []
        try f.local.forEachChunk(query) { items, _ in chunks.append(items) }
        #expect(chunks.map(\.count) == [512, 221])
        #expect(chunks.flatMap { $0 } == (try f.local.read(query)).items)
    }

    @Test func pendingNamesTheChunksItemsWithAChangeStillToSend() async throws {
        let f = try await SyncFixture.make()
        try f.local.transaction { writes in for item in items(600) { _ = try writes.insert(item) } }
        try await f.context.push()
        for id in ["item-0007", "item-0599"] { try await f.local.update(todo(id, "changed")) }
        var pending: [Set<ItemKey>] = []
        try f.local.forEachChunk(f.local.query.order(by: "id")) { _, keys in pending.append(keys) }
        #expect(pending == [[ItemKey(space: nil, id: "item-0007")], [ItemKey(space: nil, id: "item-0599")]])
    }

    @Test func aQueryMatchingNothingCallsNothing() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        try await f.local.insert(todo("a", "x"))
        var calls = 0
        try f.local.forEachChunk(f.local.query.filter(Field("text") == "nothing")) { _, _ in calls += 1 }
        #expect(calls == 0)
    }
}
