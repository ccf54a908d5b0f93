import Foundation
@testable import OfflineSync
import ServerTestSupport
import TableProtocol
import Synchronization
import Testing

/// Rows of a shared space through the SDK: inserted into the space, pushed there, pulled by the
/// other member into the same local table beside their own rows, and purged by space.
@Suite struct SharedSpaceSyncTests {
    @Test func anItemInsertedInASpaceReachesTheOtherMember() async throws {
        let d = try await SpaceDevices.make()
        try await d.ann.table(SpaceDevices.table).inSpace(d.space).insert(["text": "milk"])
        try await d.ann.push()
        try await d.bob.table(SpaceDevices.table).inSpace(d.space).pull(queryId: "groceries@\(d.space)")
        let rows = try d.bob.table(SpaceDevices.table).read(d.bob.table(SpaceDevices.table).query).items
        #expect(rows.map { $0["text"] } == ["milk"])
        #expect(rows.map { SharedSpace.of($0) } == [d.space])
        #expect(rows.map { $0["updatedBy"] } == ["ann"])
    }

    @Test func ownAndSharedRowsLiveSideBySideAndEachGoesToItsNamespace() async throws {
        let d = try await SpaceDevices.make()
        let annTable = d.ann.table(SpaceDevices.table)
        try await annTable.insert(["id": "mine", "text": "diary"])
        try await annTable.inSpace(d.space).insert(["id": "ours", "text": "bread"])
        try await d.ann.push()
        // bob sees the space's row and nothing of ann's own.
        try await d.bob.table(SpaceDevices.table).inSpace(d.space).pull(queryId: "g@\(d.space)")
        try await d.bob.table(SpaceDevices.table).pull(queryId: "g")
        #expect(try SpaceDevices.texts(d.bob) == ["bread"])
        // ann's own pull does not bring the space's row back as her own.
        try await annTable.pull(queryId: "g")
        let ours = try #require(try annTable.read(id: "ours"))
        #expect(SharedSpace.of(ours) == d.space)
        #expect(try SpaceDevices.texts(d.ann) == ["bread", "diary"])
    }

    @Test func anEditFromTheOtherMemberAndADeletionComeBack() async throws {
        let d = try await SpaceDevices.make()
        let queryId = "g@\(d.space)"
        try await d.ann.table(SpaceDevices.table).inSpace(d.space).insert(["id": "milk", "text": "milk"])
        try await d.ann.push()
        let bobs = d.bob.table(SpaceDevices.table).inSpace(d.space)
        try await bobs.pull(queryId: queryId)
        try await bobs.update(["id": "milk", "text": "oat milk"])  // an update goes to the row's own space
        try await d.bob.push()
        let anns = d.ann.table(SpaceDevices.table).inSpace(d.space)
        try await anns.pull(queryId: queryId)
        #expect(try anns.read(id: "milk")?["text"] == "oat milk")
        #expect(try anns.read(id: "milk")?["updatedBy"] == "bob")
        try await anns.delete(["id": "milk"])
        try await d.ann.push()
        try await bobs.pull(queryId: queryId)
        #expect(try bobs.read(id: "milk") == nil)
    }

    @Test func manyWritesToTwoNamespacesGoInBatchesPerNamespace() async throws {
        let d = try await SpaceDevices.make()
        let table = d.ann.table(SpaceDevices.table)
        for n in 0..<6 {
            try await (n % 2 == 0 ? table : table.inSpace(d.space)).insert(["id": .string("i\(n)"), "text": .string("\(n)")])
        }
        try await d.ann.push()
        #expect(d.ann.pendingOperationsCount == 0)
        let own = try await d.ann.client!.table(SpaceDevices.table).queryAll(SyncQuery(table: SpaceDevices.table)).items
        let shared = try await d.ann.client!.table(SpaceDevices.table, space: d.space).queryAll(SyncQuery(table: SpaceDevices.table)).items
        #expect(Set(own.compactMap { $0["id"]?.stringValue }) == ["i0", "i2", "i4"])
        #expect(Set(shared.compactMap { $0["id"]?.stringValue }) == ["i1", "i3", "i5"])
    }

    @Test func purgingASpaceLeavesEveryOtherRow() async throws {
        let d = try await SpaceDevices.make()
        let table = d.ann.table(SpaceDevices.table)
        try await table.insert(["text": "mine"])
        try await table.inSpace(d.space).insert(["text": "ours"])
        try await d.ann.push()
        try await table.inSpace(d.space).purge(queryId: "g@\(d.space)")
        #expect(try SpaceDevices.texts(d.ann) == ["mine"])
    }

    @Test func aViewersWriteIsRefusedAndStaysQueuedWithTheReason() async throws {
        let d = try await SpaceDevices.make(bobRole: .viewer)
        try await d.bob.table(SpaceDevices.table).inSpace(d.space).insert(["text": "sneaky"])
        await #expect(throws: SyncError.self) { try await d.bob.push() }
        #expect(d.bob.pendingOperationsCount == 1)
        let errors = try d.bob.operationErrors()
        #expect(errors.first?.statusCode == 403)
        #expect(errors.first?.code == SyncErrorCode.readOnlySpace.rawValue)
        #expect(errors.first?.message.contains("viewer") == true)
    }

    @Test func membersAndRolesAreManagedThroughTheClient() async throws {
        let d = try await SpaceDevices.make(bobRole: .viewer)
        #expect(try await d.bob.client!.spaces() == [SpaceInfo(id: d.space, role: .viewer, owners: ["ann"], members: 2)])
        try await d.ann.client!.setRole(.editor, of: "bob", in: d.space)
        #expect(try await d.bob.client!.members(of: d.space) == [SpaceMember(user: "ann", role: .owner), SpaceMember(user: "bob", role: .editor)])
        try await d.bob.client!.removeMember("bob", from: d.space)
        #expect(try await d.bob.client!.spaces().isEmpty)
        await #expect(throws: SyncError.self) { try await d.bob.client!.members(of: d.space) }
    }
}

/// Leaving a space, or being removed from it: the device drops the space's rows, and a change
/// still queued for it goes to the conflict log with the reason instead of vanishing.
@Suite struct DroppedSpaceTests {
    @Test func aRemovedMembersQueuedChangeGoesToTheLogWithTheReason() async throws {
        let d = try await SpaceDevices.make()
        try await d.ann.table(SpaceDevices.table).inSpace(d.space).insert(["id": "milk", "text": "milk"])
        try await d.ann.push()
        let bobs = d.bob.table(SpaceDevices.table)
        try await bobs.inSpace(d.space).pull(queryId: "g")
        try await bobs.insert(["id": "mine", "text": "my own"])
        try await bobs.update(["id": "milk", "text": "oat milk"])  // queued, then bob is removed
        try await d.ann.client!.removeMember("bob", from: d.space)
        await #expect(throws: SyncError.self) { try await d.bob.push() }
        #expect(try d.bob.operationErrors().contains { $0.statusCode == 404 && $0.message.contains("no such space") })
        // The device sees the space is no longer among the account's, and drops it.
        let gone = try d.bob.localSpaces().subtracting(try await d.bob.client!.spaces().map(\.id))
        #expect(gone == [d.space])
        #expect(try await d.bob.dropSpace(d.space, reason: "removed from the list by its owner") == 1)
        #expect(try SpaceDevices.texts(d.bob) == ["my own"])
        #expect(d.bob.pendingOperationsCount == 0)
        let entry = try #require(try d.bob.conflictLog().first)
        #expect(entry.resolution == .notSent)
        #expect(entry.reason == "removed from the list by its owner")
        #expect(entry.lost["text"] == "oat milk")
        #expect(try d.bob.localSpaces().isEmpty)
    }

    @Test func aDissolvedSpacesRowsComeHomeWithTheirUnsentChanges() async throws {
        let d = try await SpaceDevices.make()
        let anns = d.ann.table(SpaceDevices.table).inSpace(d.space)
        try await anns.insert(["id": "milk", "text": "milk"])
        try await anns.insert(["id": "eggs", "text": "eggs"])
        try await d.ann.push()
        try await anns.update(["id": "milk", "text": "oat milk"])  // queued
        try await anns.delete(["id": "eggs"])  // queued
        // Another device of ann's dissolves the space: its rows go home on the server, ids kept.
        _ = try await d.ann.client!.moveRows([RowSelection(table: SpaceDevices.table, where: Field("text") != nil)], from: d.space, to: nil)
        try await d.ann.client!.deleteSpace(d.space)
        #expect(try await d.ann.returnSpace(d.space) == 2)
        #expect(try d.ann.localSpaces().isEmpty)
        try await d.ann.push()
        #expect(try d.ann.conflictLog().isEmpty)
        let own = try await d.ann.client!.table(SpaceDevices.table).queryAll(SyncQuery(table: SpaceDevices.table)).items
        #expect(own.map { $0["text"] } == ["oat milk"])
    }

    @Test func aChangeThatWasNotSentCanBeBroughtBackAsYourOwn() async throws {
        let d = try await SpaceDevices.make()
        let bobs = d.bob.table(SpaceDevices.table).inSpace(d.space)
        try await bobs.insert(["id": "eggs", "text": "eggs"])
        try await d.bob.dropSpace(d.space, reason: "left the list")
        let entry = try #require(try d.bob.conflictLog().first)
        try d.bob.restoreConflict(id: entry.id)
        let restored = try #require(try d.bob.table(SpaceDevices.table).read(id: "eggs"))
        #expect(restored["text"] == "eggs")
        #expect(SharedSpace.of(restored) == nil)
        try await d.bob.push()
        let own = try await d.bob.client!.table(SpaceDevices.table).queryAll(SyncQuery(table: SpaceDevices.table)).items
        #expect(own.map { $0["text"] } == ["eggs"])
    }

    @Test func rejoiningPullsTheWholeSpaceAgain() async throws {
        let d = try await SpaceDevices.make()
        try await d.ann.table(SpaceDevices.table).inSpace(d.space).insert(["text": "milk"])
        try await d.ann.push()
        let bobs = d.bob.table(SpaceDevices.table).inSpace(d.space)
        try await bobs.pull(queryId: "g")
        try await d.bob.client!.removeMember("bob", from: d.space)
        try await d.bob.dropSpace(d.space, reason: "left the list")
        #expect(try SpaceDevices.texts(d.bob).isEmpty)
        try await d.ann.client!.setRole(.editor, of: "bob", in: d.space)
        try await bobs.pull(queryId: "g")
        #expect(try SpaceDevices.texts(d.bob) == ["milk"])
    }

    @Test func droppingOneSpaceLeavesTheOthersAndYourOwn() async throws {
        let d = try await SpaceDevices.make()
        let other = try await d.bob.client!.createSpace()
        let table = d.bob.table(SpaceDevices.table)
        try await table.insert(["text": "mine"])
        try await table.inSpace(other).insert(["text": "other space"])
        try await table.inSpace(d.space).insert(["text": "dropped"])
        try await d.bob.push()
        try await d.bob.dropSpace(d.space, reason: "left")
        #expect(try SpaceDevices.texts(d.bob) == ["mine", "other space"])
        #expect(try d.bob.localSpaces() == [other])
    }
}

/// Live mode over the server's combined feed: one connection hears the account's own tables and
/// its spaces'.
@Suite struct SpaceLiveSyncTests {
    @Test func aWriteInASpaceReachesTheOtherMemberLiveOverOneFeed() async throws {
        let d = try await SpaceDevices.make()
        let changes = Mutex<[FeedChange]>([])
        let states = StateLog()
        let bobs = d.bob.table(SpaceDevices.table)
        let live = LiveSync(context: d.bob, tables: [SpaceDevices.table], options: LiveSyncTests.fast,
                            pull: { [space = d.space] in
                                try await bobs.pull(queryId: "live")
                                try await bobs.inSpace(space).pull(queryId: "live")
                            },
                            onState: states.record, onChange: { change in changes.withLock { $0.append(change) } })
        live.start()
        defer { live.stop() }
        try await states.wait(for: .live)
        try await d.ann.table(SpaceDevices.table).inSpace(d.space).insert(["id": "milk", "text": "milk"])
        try await d.ann.push()
        try await until("bob has ann's item") { try bobs.read(id: "milk")?["text"] == "milk" }
        // The catch-up pull the feed's opening asks for may bring the item first (a loaded
        // machine can delay it past Ann's push): the feed's own word of it is awaited too.
        try await until("bob's feed tells of ann's item") {
            changes.withLock { $0 }.contains { $0.id == "milk" && $0.space == d.space && $0.table == SpaceDevices.table }
        }
    }
}

/// Ids are per namespace on the server; on a device a row is keyed by (space, id), so a pulled
/// row of one namespace never takes the place of (or deletes) a row of another: both stay.
@Suite struct SpaceIdClashTests {
    @Test func aSpacesRowWithTheIdOfOneOfYoursNeitherOverwritesNorDeletesItAndStaysBesideIt() async throws {
        let d = try await SpaceDevices.make()
        try await d.ann.table(SpaceDevices.table).insert(["id": "x", "text": "ann's own"])
        try await d.ann.push()
        let bobs = d.bob.table(SpaceDevices.table).inSpace(d.space)
        try await bobs.insert(["id": "x", "text": "aimed at ann"])
        try await d.bob.push()
        let anns = d.ann.table(SpaceDevices.table).inSpace(d.space)
        try await anns.pull(queryId: "g")
        #expect(try d.ann.table(SpaceDevices.table).read(id: "x")?["text"] == "ann's own")
        #expect(try d.ann.table(SpaceDevices.table).rows(id: "x").map { $0["text"] } == ["ann's own", "aimed at ann"])
        try await bobs.delete(["id": "x"])
        try await d.bob.push()
        try await anns.pull(queryId: "g")
        let mine = try #require(try d.ann.table(SpaceDevices.table).read(id: "x"))
        #expect(mine["text"] == "ann's own")
        #expect(SharedSpace.of(mine) == nil)
    }

    @Test func restoringAConflictOfASharedItemPutsItBackInTheSpace() async throws {
        let d = try await SpaceDevices.make(bobsDelegate: ScriptedResolver(.server))
        try await d.ann.table(SpaceDevices.table).inSpace(d.space).insert(["id": "milk", "text": "milk"])
        try await d.ann.push()
        let bobs = d.bob.table(SpaceDevices.table).inSpace(d.space)
        try await bobs.pull(queryId: "g")
        try await d.ann.table(SpaceDevices.table).delete(["id": "milk"])
        try await d.ann.push()
        try await bobs.update(["id": "milk", "text": "oat milk"])
        try await d.bob.push()  // deleted on the server; bob lets the deletion stand
        #expect(try bobs.read(id: "milk") == nil)
        let entry = try #require(try d.bob.conflictLog().first)
        let restored = try #require(try d.bob.restoreConflict(id: entry.id))
        #expect(SharedSpace.of(restored) == d.space)
        try await d.bob.push()
        try await d.ann.table(SpaceDevices.table).inSpace(d.space).pull(queryId: "g")
        #expect(try d.ann.table(SpaceDevices.table).read(id: "milk")?["text"] == "oat milk")
    }
}
