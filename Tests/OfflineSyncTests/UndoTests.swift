import Foundation
import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// Undo and redo through the operation queue, against a real todo-server: what is and is not
/// sent afterwards, and that the journal survives a restart.
@Suite struct UndoTests {
    /// A fixture whose requests are recorded.
    private func recorded() async throws -> (SyncFixture, FaultyTransport) {
        let transport = FaultyTransport()
        let made = try await SyncFixture.make()
        let fixture = try SyncFixture(table: made.table, storePath: made.storePath, serverURL: made.serverURL, transport: transport)
        return (fixture, transport)
    }

    private func writes(_ transport: FaultyTransport) -> [String] {
        transport.requests.filter { !$0.hasPrefix("GET") }
    }

    @Test func nothingToUndoAnswersNil() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        #expect(try f.context.undo() == nil)
        #expect(try f.context.redo() == nil)
    }

    @Test func undoingAnUnsentAddRemovesItAndNothingIsSent() async throws {
        let (f, transport) = try await recorded()
        try await f.local.insert(todo("a", "milk"))
        let result = try #require(try f.context.undo())
        #expect(result.changes.map(\.change) == [.insert])
        #expect(!result.sendsNewChange)
        #expect(try f.local.read(id: "a") == nil)
        #expect(f.context.pendingOperationsCount == 0)
        try await f.context.push()
        #expect(writes(transport).isEmpty)
        #expect(try await f.serverItems()["a"] == nil)
    }

    @Test func undoingTheOnlyEditOfAPushedItemLeavesNothingQueued() async throws {
        let (f, transport) = try await recorded()
        try await f.local.insert(todo("a", "milk"))
        try await f.context.push()
        try await f.local.update(["id": "a", "text": "oat milk"])
        let result = try #require(try f.context.undo())
        #expect(result.changes.first?.item?["text"] == "milk")
        #expect(!result.sendsNewChange)
        #expect(f.context.pendingOperationsCount == 0)
        try await f.context.push()
        #expect(writes(transport).count == 1)  // the first insert only
        #expect(try await f.serverItems()["a"]?["text"] == "milk")
    }

    @Test func undoingAnUnsentDeleteBringsTheItemBackWithNothingQueued() async throws {
        let (f, transport) = try await recorded()
        try await f.local.insert(todo("a", "milk"))
        try await f.context.push()
        let version = try f.local.read(id: "a")?["version"]
        try await f.local.delete(["id": "a"])
        try f.context.undo()
        #expect(try f.local.read(id: "a")?["text"] == "milk")
        #expect(try f.local.read(id: "a")?["version"] == version)
        #expect(f.context.pendingOperationsCount == 0)
        try await f.context.push()
        #expect(writes(transport).count == 1)
        #expect(try await f.serverItems()["a"]?["deleted"] == false)
    }

    @Test func undoingADeleteThatFollowedAnEditKeepsTheEditQueued() async throws {
        let f = try await SyncFixture.make()
        try await f.local.insert(todo("a", "milk"))
        try await f.context.push()
        try await f.local.update(["id": "a", "text": "oat milk"])
        try await f.local.delete(["id": "a"])
        try f.context.undo()
        #expect(try f.local.read(id: "a")?["text"] == "oat milk")
        #expect(f.context.pendingOperationsCount == 1)
        try await f.context.push()
        #expect(try await f.serverItems()["a"]?["text"] == "oat milk")
        #expect(try await f.serverItems()["a"]?["deleted"] == false)
    }

    @Test func severalStepsBackReturnTheItemToEachEarlierState() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        try await f.local.insert(todo("a", "one"))
        try await f.local.update(["id": "a", "text": "two"])
        try await f.local.update(["id": "a", "complete": true])
        try f.context.undo()
        #expect(try f.local.read(id: "a")?["complete"] == false)
        #expect(try f.local.read(id: "a")?["text"] == "two")
        try f.context.undo()
        #expect(try f.local.read(id: "a")?["text"] == "one")
        try f.context.undo()
        #expect(try f.local.read(id: "a") == nil)
        #expect(f.context.pendingOperationsCount == 0)
        #expect(try f.context.undo() == nil)
    }

    @Test func undoingAPushedEditSendsTheOldValuesAsANewChange() async throws {
        let f = try await SyncFixture.make()
        try await f.local.insert(todo("a", "milk"))
        try await f.local.update(["id": "a", "text": "oat milk"])
        try await f.context.push()
        let result = try #require(try f.context.undo())
        #expect(result.sendsNewChange)
        #expect(f.context.pendingOperationsCount == 1)
        try await f.context.push()
        #expect(try await f.serverItems()["a"]?["text"] == "milk")
    }

    @Test func undoingAPushedDeleteUndeletesTheServerRow() async throws {
        let f = try await SyncFixture.make()
        try await f.local.insert(todo("a", "milk"))
        try await f.context.push()
        try await f.local.delete(["id": "a"])
        try await f.context.push()
        #expect(try await f.serverItems()["a"]?["deleted"] == true)
        let result = try #require(try f.context.undo())
        #expect(result.sendsNewChange)
        try await f.context.push()
        let server = try await f.serverItems()["a"]
        #expect(server?["deleted"] == false)
        #expect(server?["text"] == "milk")
        #expect(f.context.pendingOperationsCount == 0)
    }

    @Test func undoingAPushedAddDeletesItOnTheServer() async throws {
        let f = try await SyncFixture.make()
        try await f.local.insert(todo("a", "milk"))
        try await f.context.push()
        #expect(try #require(try f.context.undo()).sendsNewChange)
        try await f.context.push()
        #expect(try await f.serverItems()["a"]?["deleted"] == true)
    }

    @Test func redoMakesTheUndoneChangeAgain() async throws {
        let f = try await SyncFixture.make()
        try await f.local.insert(todo("a", "milk"))
        try await f.local.update(["id": "a", "text": "oat milk"])
        try f.context.undo()
        try f.context.undo()
        let first = try #require(try f.context.redo())
        #expect(first.direction == .redo)
        #expect(first.changes.map(\.change) == [.insert])
        #expect(try f.local.read(id: "a")?["text"] == "milk")
        try f.context.redo()
        #expect(try f.local.read(id: "a")?["text"] == "oat milk")
        #expect(try f.context.redo() == nil)
        try await f.context.push()
        #expect(try await f.serverItems()["a"]?["text"] == "oat milk")
    }

    @Test func aNewChangeEndsWhatCanBeRedone() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        try await f.local.insert(todo("a", "milk"))
        try f.context.undo()
        try await f.local.insert(todo("b", "bread"))
        #expect(try f.context.redo() == nil)
        try f.context.undo()
        #expect(try f.local.read(id: "b") == nil)
        #expect(try f.context.undo() == nil)
    }

    @Test func theJournalSurvivesARestart() async throws {
        let f = try await SyncFixture.make()
        try await f.local.insert(todo("a", "milk"))
        try await f.context.push()
        try await f.local.update(["id": "a", "text": "oat milk"])
        let reopened = try f.reopened(serverURL: f.serverURL)
        try reopened.context.undo()
        #expect(try reopened.local.read(id: "a")?["text"] == "milk")
        #expect(reopened.context.pendingOperationsCount == 0)
        try reopened.context.redo()
        try await reopened.context.push()
        #expect(try await f.serverItems()["a"]?["text"] == "oat milk")
    }

    @Test func undoingAnEditOfAnItemDeletedElsewhereReportsItGone() async throws {
        let f = try await SyncFixture.make()
        try await f.local.insert(todo("a", "milk"))
        try await f.local.update(["id": "a", "text": "oat milk"])
        try await f.context.push()
        let other = try f.otherDevice()
        try await other.local.pull()
        try await other.local.delete(["id": "a"])
        try await other.context.push()
        try await f.local.pull()
        let result = try #require(try f.context.undo())
        #expect(result.changes.first?.itemGone == true)
        #expect(try f.local.read(id: "a") == nil)
        #expect(f.context.pendingOperationsCount == 0)
    }

    @Test func undoKeepsOnlyUndoDepthSteps() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        let context = SyncContext(client: nil, dataSource: f.store, undoDepth: 2)
        for i in 0..<4 { try await context.table(f.table).insert(todo("i\(i)", "item \(i)")) }
        #expect(try context.undo() != nil)
        #expect(try context.undo() != nil)
        #expect(try context.undo() == nil)
        #expect(try context.table(f.table).read(id: "i1") != nil)
    }
}

/// Several writes in one transaction: all or nothing, one undo step.
@Suite struct TableTransactionTests {
    @Test func aTransactionThatThrowsKeepsNoneOfItsWrites() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        #expect(throws: SyncError.self) {
            try f.local.transaction { writes in
                try writes.insert(todo("a", "one"))
                try writes.insert(todo("a", "again"))  // the id exists: the whole transaction goes
            }
        }
        #expect(try f.local.read(id: "a") == nil)
        #expect(f.context.pendingOperationsCount == 0)
    }

    @Test func theWritesOfATransactionAreOneUndoStep() async throws {
        let f = try await SyncFixture.make(localOnly: true)
        try f.local.transaction { writes in
            for i in 0..<3 { try writes.insert(todo("i\(i)", "item \(i)")) }
        }
        let result = try #require(try f.context.undo())
        #expect(result.changes.count == 3)
        #expect(try f.local.read(SyncQuery(table: f.table)).items.isEmpty)
        #expect(f.context.pendingOperationsCount == 0)
    }
}
