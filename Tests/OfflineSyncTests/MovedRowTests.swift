import Foundation
@testable import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// Rows that move between namespaces on the server (`SyncClient.moveRows`) keep their identity on
/// every device: the device that moved them moves its copies, another device's queued change
/// follows the row with no conflict, and a pull in either order leaves one row where it now is.
@Suite struct MovedRowTests {
    /// ann's second device, with `milk` pulled from her own namespace.
    static func annsOtherDevice(_ d: SpaceDevices) async throws -> SyncContext {
        try await d.ann.table(SpaceDevices.table).insert(["id": "milk", "text": "milk"])
        try await d.ann.push()
        let phone = try await SpaceDevices.device(d.server, "ann")
        try await phone.table(SpaceDevices.table).pull(queryId: "g")
        return phone
    }

    static func move(_ d: SpaceDevices, ids: [String], to space: String?) async throws {
        let moved = try await d.ann.client!.moveRows([RowSelection(table: SpaceDevices.table, where: Field("id") == .string(ids[0]))],
                                                      from: nil, to: space)
        #expect(moved[SpaceDevices.table.lowercased()]?.ids == ids)
        try await d.ann.moveRows(in: SpaceDevices.table, ids: ids, from: nil, to: space)
    }

    @Test func theMovingDeviceKeepsTheRowUnderItsIdInTheSpace() async throws {
        let d = try await SpaceDevices.make()
        try await d.ann.table(SpaceDevices.table).insert(["id": "milk", "text": "milk"])
        try await d.ann.push()
        try await Self.move(d, ids: ["milk"], to: d.space)
        let row = try #require(try d.ann.table(SpaceDevices.table).read(id: "milk"))
        #expect(SharedSpace.of(row) == d.space)
        try await d.ann.table(SpaceDevices.table).update(["id": "milk", "text": "oat milk"])
        try await d.ann.push()
        try await d.bob.table(SpaceDevices.table).inSpace(d.space).pull(queryId: "g")
        #expect(try SpaceDevices.texts(d.bob) == ["oat milk"])
    }

    @Test func aChangeQueuedOnAnotherDeviceFollowsTheRowWithNoConflict() async throws {
        let d = try await SpaceDevices.make()
        let phone = try await Self.annsOtherDevice(d)
        try await phone.table(SpaceDevices.table).update(["id": "milk", "text": "oat milk"])  // offline
        try await Self.move(d, ids: ["milk"], to: d.space)
        try await phone.push()
        #expect(phone.pendingOperationsCount == 0)
        #expect(try phone.conflictLog().isEmpty)
        #expect(SharedSpace.of(try #require(try phone.table(SpaceDevices.table).read(id: "milk"))) == d.space)
        try await d.bob.table(SpaceDevices.table).inSpace(d.space).pull(queryId: "g")
        #expect(try SpaceDevices.texts(d.bob) == ["oat milk"])
        let own = try await d.ann.client!.table(SpaceDevices.table).queryAll(SyncQuery(table: SpaceDevices.table)).items
        #expect(own.isEmpty, "nothing came back to ann's own namespace")
    }

    /// bob's own row in the space holds the id: ann's `milk` arrives there with a new id.
    static func moveIntoAClash(_ d: SpaceDevices) async throws -> String {
        try await d.bob.table(SpaceDevices.table).inSpace(d.space).insert(["id": "milk", "text": "bob's milk"])
        try await d.bob.push()
        let moved = try await d.ann.client!.moveRows([RowSelection(table: SpaceDevices.table, where: Field("id") == .string("milk"))],
                                                      from: nil, to: d.space)
        return try #require(moved[SpaceDevices.table.lowercased()]?.renamed["milk"])
    }

    @Test func theMovingDeviceFollowsARowGivenANewIdAndLogsWhy() async throws {
        let d = try await SpaceDevices.make()
        try await d.ann.table(SpaceDevices.table).insert(["id": "milk", "text": "milk"])
        try await d.ann.push()
        let newId = try await Self.moveIntoAClash(d)
        let followed = try await d.ann.followRenamedRows(in: SpaceDevices.table, renamed: ["milk": newId], from: nil, reason: "its id was taken")
        #expect(followed == 1)
        #expect(try d.ann.table(SpaceDevices.table).read(id: "milk") == nil)
        let entry = try #require(try d.ann.conflictLog().first)
        #expect(entry.resolution == .movedWithNewId && entry.reason == "its id was taken")
        #expect(entry.server?[SystemProperty.id] == .string(newId))
        try await d.ann.table(SpaceDevices.table).inSpace(d.space).pull(queryId: "g")
        #expect(try SpaceDevices.texts(d.ann).sorted() == ["bob's milk", "milk"])
    }

    @Test func aChangeQueuedOnAnotherDeviceForARowGivenANewIdIsSetAsideAndThePushGoesOn() async throws {
        let d = try await SpaceDevices.make()
        let phone = try await Self.annsOtherDevice(d)
        try await phone.table(SpaceDevices.table).update(["id": "milk", "text": "oat milk"])  // offline
        try await phone.table(SpaceDevices.table).insert(["id": "eggs", "text": "eggs"])
        _ = try await Self.moveIntoAClash(d)
        try await phone.push()
        #expect(phone.pendingOperationsCount == 0)
        let entry = try #require(try phone.conflictLog().first)
        #expect(entry.resolution == .notSent && entry.itemId == "milk")
        #expect(entry.reason?.contains("new id") == true)
        #expect(entry.lost["text"] == .string("oat milk"))
        let own = try await d.ann.client!.table(SpaceDevices.table).queryAll(SyncQuery(table: SpaceDevices.table)).items
        #expect(own.compactMap { $0[SystemProperty.id]?.stringValue } == ["eggs"])
    }

    @Test func aDeletionQueuedOnAnotherDeviceFollowsTheRow() async throws {
        let d = try await SpaceDevices.make()
        let phone = try await Self.annsOtherDevice(d)
        try await phone.table(SpaceDevices.table).delete(["id": "milk"])
        try await Self.move(d, ids: ["milk"], to: d.space)
        try await phone.push()
        #expect(phone.pendingOperationsCount == 0)
        try await d.bob.table(SpaceDevices.table).inSpace(d.space).pull(queryId: "g")
        #expect(try SpaceDevices.texts(d.bob).isEmpty)
    }

    @Test(arguments: [true, false])
    func aPullInEitherOrderLeavesOneRowWhereItNowIs(spaceFirst: Bool) async throws {
        let d = try await SpaceDevices.make()
        let phone = try await Self.annsOtherDevice(d)
        try await Self.move(d, ids: ["milk"], to: d.space)
        let pulls: [String?] = spaceFirst ? [d.space, nil] : [nil, d.space]
        for space in pulls { try await phone.table(SpaceDevices.table).inSpace(space).pull(queryId: "g") }
        let rows = try phone.table(SpaceDevices.table).read(phone.table(SpaceDevices.table).query).items
        #expect(rows.map { $0["id"] } == ["milk"])
        #expect(rows.map { SharedSpace.of($0) } == [d.space])
    }

    @Test func aRowMovedBackIsYourOwnAgainOnEveryDevice() async throws {
        let d = try await SpaceDevices.make()
        let phone = try await Self.annsOtherDevice(d)
        try await Self.move(d, ids: ["milk"], to: d.space)
        for space in [nil, d.space] as [String?] { try await phone.table(SpaceDevices.table).inSpace(space).pull(queryId: "g") }
        try await phone.table(SpaceDevices.table).update(["id": "milk", "text": "oat milk"])  // offline, in the space
        _ = try await d.ann.client!.moveRows([RowSelection(table: SpaceDevices.table, where: Field("id") == .string("milk"))], from: d.space, to: nil)
        try await d.ann.moveRows(in: SpaceDevices.table, ids: ["milk"], from: d.space, to: nil)
        try await phone.push()
        #expect(try phone.conflictLog().isEmpty)
        #expect(SharedSpace.of(try #require(try phone.table(SpaceDevices.table).read(id: "milk"))) == nil)
        try await d.ann.table(SpaceDevices.table).pull(queryId: "g")
        #expect(try d.ann.table(SpaceDevices.table).read(id: "milk")?["text"] == "oat milk")
    }

    @Test func undoingADeleteQueuedBeforeAMoveBringsTheRowBackWhereItNowLives() async throws {
        let d = try await SpaceDevices.make()
        let table = d.ann.table(SpaceDevices.table)
        try await table.insert(["id": "milk", "text": "milk"])
        try await d.ann.push()
        try await table.delete(["id": "milk"])  // queued, not sent
        try await Self.move(d, ids: ["milk"], to: d.space)
        try d.ann.undo()
        #expect(try table.rows(id: "milk").map { SharedSpace.of($0) } == [d.space])
        #expect(d.ann.pendingOperationsCount == 0)  // the server's version again: nothing to send
        try await d.bob.table(SpaceDevices.table).inSpace(d.space).pull(queryId: "g")
        #expect(try SpaceDevices.texts(d.bob) == ["milk"])
    }
}
