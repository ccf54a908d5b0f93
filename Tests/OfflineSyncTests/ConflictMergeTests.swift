import Foundation
@testable import OfflineSync
import ServerTestSupport
import Synchronization
import TableProtocol
import Testing

/// A delegate that answers every conflict the same way and remembers what it was asked.
final class ScriptedResolver: SyncContextDelegate, Sendable {
    let answer: ConflictResolution?
    let asked = Mutex<[SyncConflict]>([])

    init(_ answer: ConflictResolution?) { self.answer = answer }

    /// It answers conflicts only: pushes may batch.
    var usesTableOperationHook: Bool { false }

    func resolve(_ conflict: SyncConflict) async -> ConflictResolution? {
        asked.withLock { $0.append(conflict) }
        return answer
    }

    var conflicts: [SyncConflict] { asked.withLock { $0 } }
}

/// Two devices against a real server: merges that need nobody, clashes, edit against delete,
/// the conflict log and restoring from it.
@Suite struct ConflictMergeTests {
    /// Device A made "milk" and pushed it; device B pulled it. B answers conflicts with `answer`.
    func twoDevices(_ answer: ConflictResolution?, policy: MergePolicy = .fieldMerge) async throws
        -> (a: SyncFixture, b: SyncFixture, resolver: ScriptedResolver, id: String) {
        let a = try await SyncFixture.make(mergePolicy: policy)
        let id = UUID().uuidString
        try await a.local.insert(todo(id, "milk"))
        try await a.context.push()
        let resolver = ScriptedResolver(answer)
        let b = try a.otherDevice(delegate: resolver, mergePolicy: policy)
        try await b.local.pull()
        return (a, b, resolver, id)
    }

    /// Changes fields of the local item and queues the update.
    func edit(_ device: SyncFixture, _ id: String, _ changes: [(String, JSONValue)]) async throws {
        var item = try #require(try device.local.read(id: id))
        for (key, value) in changes { item[key] = value }
        try await device.local.update(item)
    }

    @Test func tagsAddedOnOneDeviceAndRemovedOnTheOtherBothSurviveAPush() async throws {
        let (a, b, resolver, id) = try await twoDevices(.cancel)
        try await edit(a, id, [("tags", "home someday")])
        try await a.context.push()
        try await b.local.pull()
        try await edit(a, id, [("tags", "home")])
        try await a.context.push()
        try await edit(b, id, [("tags", "home someday urgent")])
        try await b.context.push()
        #expect(resolver.conflicts.isEmpty)
        #expect(try await b.serverItems()[id]?["tags"] == "home urgent")
        #expect(try b.local.read(id: id)?["tags"] == "home urgent")
    }

    @Test func theConflictLogIsALiveQuery() async throws {
        let (a, b, _, id) = try await twoDevices(.cancel)
        var log = b.context.observeConflictLog().makeAsyncIterator()
        #expect(try await log.next()?.isEmpty == true)
        try await edit(a, id, [("text", "oat milk")])
        try await a.context.push()
        try await edit(b, id, [("complete", true)])
        try await b.context.push()
        #expect(try await log.next()?.map(\.resolution) == [.merged])
        try b.context.clearConflictLog()
        #expect(try await log.next()?.isEmpty == true)
    }

    @Test func editsOfDifferentFieldsMergeWithoutAsking() async throws {
        let (a, b, resolver, id) = try await twoDevices(.cancel)
        try await edit(a, id, [("text", "oat milk")])
        try await a.context.push()
        try await edit(b, id, [("complete", true)])
        try await b.context.push()
        #expect(resolver.conflicts.isEmpty)
        let server = try #require(try await b.serverItems()[id])
        #expect(server["text"] == "oat milk" && server["complete"] == true)
        #expect(try b.local.read(id: id)?["text"] == "oat milk")
        #expect(b.context.pendingOperationsCount == 0)
        let log = try b.context.conflictLog()
        #expect(log.count == 1)
        #expect(log.first?.resolution == .merged)
        #expect(Set(log.first?.fields ?? []) == ["text", "complete"])
        #expect(log.first?.lost.isEmpty == true)
    }

    @Test func aClashAsksWithBaseLocalServerAndTheClashingField() async throws {
        let (a, b, resolver, id) = try await twoDevices(.client)
        try await edit(a, id, [("text", "butter")])
        try await a.context.push()
        try await edit(b, id, [("text", "bread"), ("complete", true)])
        try await b.context.push()
        let conflict = try #require(resolver.conflicts.first)
        #expect(resolver.conflicts.count == 1)
        #expect(conflict.kind == .edit)
        #expect(conflict.clashingFields == ["text"])
        #expect(conflict.base?["text"] == "milk" && conflict.local["text"] == "bread" && conflict.server?["text"] == "butter")
        let server = try #require(try await b.serverItems()[id])
        #expect(server["text"] == "bread" && server["complete"] == true)
        let entry = try #require(try b.context.conflictLog().first)
        #expect(entry.resolution == .client)
        #expect(entry.lost == ["text": "butter"])
    }

    @Test func useServerKeepsTheServersClashingValueAndStillSendsTheOtherChanges() async throws {
        let (a, b, _, id) = try await twoDevices(.server)
        try await edit(a, id, [("text", "butter")])
        try await a.context.push()
        try await edit(b, id, [("text", "bread"), ("complete", true)])
        try await b.context.push()
        let server = try #require(try await b.serverItems()[id])
        #expect(server["text"] == "butter" && server["complete"] == true)
        #expect(try b.local.read(id: id)?["text"] == "butter")
        #expect(try b.context.conflictLog().first?.lost == ["text": "bread"])
    }

    @Test func restoringBringsTheLosingValueBackAsAQueuedChange() async throws {
        let (a, b, _, id) = try await twoDevices(.server)
        try await edit(a, id, [("text", "butter")])
        try await a.context.push()
        try await edit(b, id, [("text", "bread")])
        try await b.context.push()
        let entry = try #require(try b.context.conflictLog().first)
        try b.context.restoreConflict(id: entry.id)
        #expect(try b.local.read(id: id)?["text"] == "bread")
        #expect(b.context.pendingOperationsCount == 1)
        #expect(try b.context.conflictLogEntry(id: entry.id)?.restoredAt != nil)
        try await b.context.push()
        #expect(try await b.serverItems()[id]?["text"] == "bread")
    }

    @Test func keepMineRecreatesAnItemDeletedOnTheServerWithThisDevicesValues() async throws {
        let (a, b, resolver, id) = try await twoDevices(.client)
        try await a.local.delete(todo(id, "milk"))
        try await a.context.push()
        try await edit(b, id, [("text", "still needed")])
        try await b.context.push()
        #expect(resolver.conflicts.map(\.kind) == [.deletedOnServer])
        let server = try #require(try await b.serverItems()[id])
        #expect(server["deleted"] == false && server["text"] == "still needed")
        #expect(try b.context.conflictLog().first?.lostADeletion == true)
    }

    @Test func keepTheirsForAServerDeletionDeletesItHereAndRestoreBringsItBack() async throws {
        let (a, b, _, id) = try await twoDevices(.server)
        try await a.local.delete(todo(id, "milk"))
        try await a.context.push()
        try await edit(b, id, [("text", "still needed")])
        try await b.context.push()
        #expect(try b.local.read(id: id) == nil)
        let entry = try #require(try b.context.conflictLog().first)
        #expect(entry.lost["text"] == "still needed")
        try b.context.restoreConflict(id: entry.id)
        #expect(try b.local.read(id: id)?["text"] == "still needed")
        try await b.context.push()  // an insert over the server's deleted row undeletes it
        let server = try #require(try await b.serverItems()[id])
        #expect(server["deleted"] == false && server["text"] == "still needed")
    }

    @Test func deleteAnywayDeletesAnItemChangedOnTheServer() async throws {
        let (a, b, resolver, id) = try await twoDevices(.client)
        try await edit(a, id, [("text", "butter")])
        try await a.context.push()
        try await b.local.delete(todo(id, "milk"))
        try await b.context.push()
        #expect(resolver.conflicts.map(\.kind) == [.deletedLocally])
        #expect(try await b.serverItems()[id]?["deleted"] == true)
        #expect(try b.context.conflictLog().first?.lost["text"] == "butter")
    }

    @Test func keepTheirsForALocalDeleteBringsTheServersItemBack() async throws {
        let (a, b, _, id) = try await twoDevices(.server)
        try await edit(a, id, [("text", "butter")])
        try await a.context.push()
        try await b.local.delete(todo(id, "milk"))
        try await b.context.push()
        #expect(try b.local.read(id: id)?["text"] == "butter")
        #expect(try await b.serverItems()[id]?["deleted"] == false)
        #expect(try b.context.conflictLog().first?.lostADeletion == true)
    }

    @Test func askAlwaysAsksEvenWhenNoFieldClashes() async throws {
        let (a, b, resolver, id) = try await twoDevices(.server, policy: .askAlways)
        try await edit(a, id, [("text", "oat milk")])
        try await a.context.push()
        try await edit(b, id, [("complete", true)])
        try await b.context.push()
        #expect(resolver.conflicts.count == 1)
        #expect(try b.local.read(id: id)?["complete"] == false)  // the whole server item won
    }

    @Test func anUnansweredClashIsAnOperationErrorNamingTheItemAndTheField() async throws {
        let (a, b, _, id) = try await twoDevices(nil)
        try await edit(a, id, [("text", "butter")])
        try await a.context.push()
        try await edit(b, id, [("text", "bread")])
        let error = await #expect(throws: SyncError.self) { try await b.context.push() }
        #expect(error?.code == .pushCompletedWithErrors)
        let recorded = try #require(error?.operationErrors.first)
        #expect(recorded.isConflict)
        #expect(recorded.message == "Conflict on item \(id): text changed here and on the server")
        #expect(b.context.pendingOperationsCount == 1)
        #expect(try b.local.read(id: id)?["text"] == "bread")
    }

    @Test func oneIdInsertedOnTwoDevicesClashesOnEveryDifferingField() async throws {
        let a = try await SyncFixture.make(mergePolicy: .fieldMerge)
        let resolver = ScriptedResolver(.server)
        let b = try a.otherDevice(delegate: resolver, mergePolicy: .fieldMerge)
        let id = UUID().uuidString
        try await a.local.insert(todo(id, "from A"))
        try await a.context.push()
        try await b.local.insert(todo(id, "from B", complete: true))
        try await b.context.push()
        let conflict = try #require(resolver.conflicts.first)
        #expect(conflict.base == nil)
        #expect(Set(conflict.clashingFields) == ["text", "complete"])
        #expect(try b.local.read(id: id)?["text"] == "from A")
        #expect(try b.context.conflictLog().first?.lost == ["text": "from B", "complete": true])
    }

    @Test func theBaseCopySurvivesReopeningTheStore() async throws {
        let (a, b, _, id) = try await twoDevices(.cancel)
        try await edit(b, id, [("complete", true)])
        let resolver = ScriptedResolver(.cancel)
        let reopened = try b.reopened(serverURL: b.serverURL, delegate: resolver, mergePolicy: .fieldMerge)
        try await edit(a, id, [("text", "oat milk")])
        try await a.context.push()
        try await reopened.context.push()
        #expect(resolver.conflicts.isEmpty)
        let server = try #require(try await reopened.serverItems()[id])
        #expect(server["text"] == "oat milk" && server["complete"] == true)
    }

    @Test func theLogKeepsTheNewestThousandEntries() async throws {
        let device = try await SyncFixture.make(localOnly: true)
        try device.store.write { session in
            for n in 0..<1_005 {
                _ = try session.addConflict(ConflictLogEntry(table: device.table, itemId: "i\(n)", kind: .edit, resolution: .merged,
                                                             at: Date(), fields: [], base: nil, local: nil, server: nil, lost: [:]))
            }
        }
        let log = try device.context.conflictLog(limit: 5_000)
        #expect(log.count == ConflictLogEntry.limit)
        #expect(log.first?.itemId == "i1004")
        #expect(log.last?.itemId == "i5")
    }

    @Test func aValueMergedInStaysWhenTheItemChangesAgainWhileTheMergeIsSent() async throws {
        let transport = FaultyTransport()
        let a = try await SyncFixture.make(transport: transport, mergePolicy: .fieldMerge)
        try await a.local.insert(todo("x", "milk"))
        try await a.context.push()
        // Another device sets the priority; this device changes the text, then again while the
        // merged item (its text, their priority) is on its way.
        let row = try await a.remote.read(id: "x")
        _ = try await a.remote.update(["id": "x", "priority": 3, "version": row["version"]!])
        try await a.local.update(["id": "x", "text": "oat milk"])
        transport.before("PATCH", endingWith: "/tables/\(a.table)/x", number: 2) {
            try await a.local.update(["id": "x", "text": "soy milk"])
        }
        try await a.context.push()
        let server = try await a.serverItems()["x"]
        #expect(server?["text"] == "soy milk")
        #expect(server?["priority"] == 3)
        #expect(try a.local.read(id: "x")?["priority"] == 3)
    }
}
