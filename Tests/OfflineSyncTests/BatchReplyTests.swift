import Foundation
import OfflineSync
import TableProtocol
import Testing

/// How a batch push reads its reply: a write the server stored as sent comes back as its stamps
/// alone (`"return": "minimal"`), any other as the item the server holds.
@Suite struct BatchReplyTests {
    private func recorded() async throws -> (SyncFixture, FaultyTransport) {
        let transport = FaultyTransport()
        let made = try await SyncFixture.make()
        return (try SyncFixture(table: made.table, storePath: made.storePath, serverURL: made.serverURL, transport: transport), transport)
    }

    /// A batch carries two writes at least (one goes alone): the second is "b", answered minimally.
    private static let stampsOfB = #"{"status":201,"etag":"\"vb\"","stamps":{"id":"b","version":"vb","deleted":false}}"#

    @Test func aPushedItemHoldsWhatTheServerHoldsAfterAMinimalReply() async throws {
        let f = try await SyncFixture.make()
        for i in 0..<5 { try await f.local.insert(todo("i\(i)", "item \(i)")) }
        try await f.context.push()
        try await f.local.update(["id": "i2", "text": "changed", "complete": true])
        try await f.context.push()
        let server = try await f.serverItems()
        for i in 0..<5 {
            let local = try #require(try f.local.read(id: "i\(i)"))
            let held = try #require(server["i\(i)"])
            for key in ["text", "complete", "version", "createdAt", "updatedAt", "deleted"] {
                #expect(local[key] == held[key], "i\(i).\(key)")
            }
        }
        #expect(f.context.pendingOperationsCount == 0)
    }

    private static let stamp = "2026-01-02T03:04:05.678Z"

    /// Pushes "a" ("mine") and "b" through a batch answered with `answerForA` for "a" (and its
    /// stamps for "b"); answers "a" as the store then holds it, and what is still queued.
    private func pushAnswering(_ answerForA: String) async throws -> (item: JSONObject, pending: Int) {
        let (f, transport) = try await recorded()
        try await f.local.insert(todo("a", "mine"))
        try await f.local.insert(todo("b", "also mine"))
        transport.fail(path: "/$batch", with: .body200(#"{"results":["# + answerForA + "," + Self.stampsOfB + "]}"))
        try await f.context.push()
        return (try #require(try f.local.read(id: "a")), f.context.pendingOperationsCount)
    }

    @Test func aReplyOfStampsAloneKeepsTheItemAsSentWithTheServersStamps() async throws {
        let (local, pending) = try await pushAnswering(
            #"{"status":201,"etag":"\"v9\"","stamps":{"id":"a","version":"v9","createdAt":"\#(Self.stamp)","updatedAt":"\#(Self.stamp)","deleted":false}}"#)
        #expect(local["text"] == "mine")
        #expect(local["version"] == "v9")
        #expect(local["updatedAt"] == .string(Self.stamp))
        #expect(pending == 0)
    }

    /// A server that does not know `"return"` answers every write whole, as it stored it.
    @Test func aReplyOfWholeItemsTakesTheValuesTheServerStored() async throws {
        let (local, _) = try await pushAnswering(
            #"{"status":201,"etag":"\"v8\"","body":{"id":"a","text":"as the server stored it","complete":false,"version":"v8","createdAt":"\#(Self.stamp)","updatedAt":"\#(Self.stamp)","deleted":false}}"#)
        #expect(local["text"] == "as the server stored it")
        #expect(local["version"] == "v8")
    }
}
