import Foundation
@testable import OfflineSync
import TableProtocol
import Testing

/// Histories the simulation found breaking a law, each written out step by step and kept, so the
/// bug it found stays fixed whatever the random cases happen to play.
@Suite struct SimulatedHistoryTests {
    /// Plays `history` on a new server with `devices` devices, each settling conflicts with its own values.
    static func play(devices: Int, _ history: (Simulation) async throws -> Void) async throws {
        let server = try await SimulatedLawTests.server()
        let folder = try LawStorage.folder()
        defer { LawStorage.remove(folder) }
        let simulation = Simulation(seed: 0, server: server, folder: folder, template: server.deviceTemplate)
        for _ in 0..<devices { try simulation.addDevice(choice: .client) }
        try await history(simulation)
        await server.close()
    }

    /// Device 0 adds a row (tagged milk) and pushes it; device 1 pulls it.
    static func shareOneRow(_ simulation: Simulation) async throws {
        try await simulation.devices[0].insert(step: 0, pick: 0)
        try await push(simulation, 0)
        try simulation.startSync(1, pull: true)
        await simulation.drain()
    }

    /// Device `index` pushes: its first writes (PATCHes) meet `fates` in turn; the rest (with no
    /// fates, every request) is delivered.
    static func push(_ simulation: Simulation, _ index: Int, patches fates: [Simulation.Fate] = []) async throws {
        try simulation.startSync(index, pull: false)
        for fate in fates {
            #expect(await simulation.deliverReads(of: index) == "PATCH")
            await simulation.deliver(index, fate)
        }
        await simulation.drain()
    }

    /// Device `index` pushes: its first write (a PATCH) reaches the server and the answer is
    /// lost; the rest is delivered.
    static func pushLosingTheAnswer(_ simulation: Simulation, _ index: Int) async throws {
        try await push(simulation, index, patches: [.replyLost])
    }

    /// The row of `shareOneRow`, its text edited on device 0 and pushed, the answer lost;
    /// answers the rows device 0 began with.
    static func editTheTextLosingTheAnswer(_ simulation: Simulation) async throws -> [String: [String: JSONValue]] {
        try await shareOneRow(simulation)
        let began = try simulation.devices[0].rows().mapValues(ConvergenceLaws.values)
        try await simulation.devices[0].edit(step: 1, pick: 0, field: 0)
        try await pushLosingTheAnswer(simulation, 0)
        return began
    }

    /// The row of `shareOneRow` tagged on both sides: device 1 adds eggs and pushes; device 0
    /// removes milk, not yet sent.
    static func tagOnBothSides(_ simulation: Simulation) async throws {
        try await shareOneRow(simulation)
        try await simulation.devices[1].edit(step: 1, pick: 4, field: 3)  // adds eggs
        try await push(simulation, 1)
        try await simulation.devices[0].edit(step: 2, pick: 0, field: 3)  // removes milk
    }

    /// Found as seed 0x3e3e5e360698f47f: an add whose push was cut before it reached the server,
    /// then deleted and the deletion undone, was taken for a row the server had (its queued
    /// operation became an update and, equal to its first send, was dropped), and never sent.
    @Test func anAddWhosePushNeverArrivedSurvivesADeleteAndItsUndo() async throws {
        try await Self.play(devices: 1) { simulation in
            let device = simulation.devices[0]
            try await device.insert(step: 0, pick: 0)
            try simulation.startSync(0, pull: false)
            #expect(await simulation.deliverReads(of: 0) == "POST")
            await simulation.deliver(0, .lostOnTheWay)
            await simulation.drain()
            try await device.delete(pick: 0)
            #expect(try device.context.undo() != nil)
            try await Self.push(simulation, 0)
            #expect(try await Array(simulation.serverRows().keys) == ["\(simulation.run)-d0-1"])
            #expect(try device.context.pendingOperationsCount(table: LawDevice.table) == 0)
        }
    }

    /// Found as seed 0xe1fbc3a7b0ebf3f1: an edit whose push reached the server but whose answer
    /// never came, undone, met another device's write of another field (412); the merge read the
    /// undone field as unchanged here (it equals the base copy again) and kept the server's, so
    /// the undone edit stayed there.
    @Test func anUndoneEditWhoseAnswerWasLostStaysUndoneThroughAnotherDevicesWrite() async throws {
        try await Self.play(devices: 2) { simulation in
            let (device, other) = (simulation.devices[0], simulation.devices[1])
            let began = try await Self.editTheTextLosingTheAnswer(simulation)
            try await other.edit(step: 2, pick: 0, field: 1)  // completion, elsewhere
            try await Self.push(simulation, 1)
            #expect(try device.context.undo() != nil)
            try await Self.push(simulation, 0)
            let row = try #require(try await simulation.serverRows().values.first)
            #expect(row["text"] == began.values.first?["text"], "the undo reached the server")
            #expect(row["complete"] == .bool(true), "the other device's write stands")
        }
    }

    /// Found as seed 0xd7da01c58c528a54 (which, once a pull stopped asking for an empty page
    /// after the last, plays another history): as above, with the undo's own send answered into
    /// the void too. The undo's values hid the first send's, and the merge kept the server's
    /// text, so the undone edit came back.
    @Test func anUndoWhoseOwnAnswerWasLostTooStaysUndoneThroughAnotherDevicesWrite() async throws {
        try await Self.play(devices: 2) { simulation in
            let (device, other) = (simulation.devices[0], simulation.devices[1])
            let began = try await Self.editTheTextLosingTheAnswer(simulation)
            #expect(try device.context.undo() != nil)
            try await Self.pushLosingTheAnswer(simulation, 0)
            try await other.edit(step: 2, pick: 0, field: 1)  // completion, elsewhere
            try await Self.push(simulation, 1)
            try await Self.push(simulation, 0)
            let row = try #require(try await simulation.serverRows().values.first)
            #expect(row["text"] == began.values.first?["text"], "the undo stands on the server")
            #expect(row["complete"] == .bool(true), "the other device's write stands")
            #expect(try device.rows().values.first?["text"] == began.values.first?["text"])
        }
    }

    /// Found as seed 0xb0f65ba4ce8804ba: as above, with a move by hand (`order`, whose clashes
    /// the server wins) in place of the text. The merge read the undone place as another
    /// device's move and kept it on the server.
    @Test func anUndoneMoveWhoseAnswerWasLostStaysUndoneThroughAnotherDevicesWrite() async throws {
        try await Self.play(devices: 2) { simulation in
            let (device, other) = (simulation.devices[0], simulation.devices[1])
            try await Self.shareOneRow(simulation)
            var row = try #require(try device.rows().values.first)
            row["order"] = .string("m")
            try await device.table.update(row)
            try await Self.pushLosingTheAnswer(simulation, 0)
            try await other.edit(step: 2, pick: 0, field: 1)  // completion, elsewhere
            try await Self.push(simulation, 1)
            #expect(try device.context.undo() != nil)
            try await Self.push(simulation, 0)
            let onServer = try #require(try await simulation.serverRows().values.first)
            #expect(onServer["order"] == .null, "the undo reached the server")
            #expect(onServer["complete"] == .bool(true), "the other device's write stands")
        }
    }

    /// Found as seed 0x8c044fc0f340849e: as above, with the edit changed back by hand rather than
    /// undone. The device completed the row, was killed while its push was on the server, and
    /// opened the row again; the merge read the server's completion (its own) as another
    /// device's change and kept it, and the acknowledged open state was lost.
    @Test func anEditChangedBackByHandAfterItsAnswerWasLostStaysChangedBackThroughAnotherDevicesWrite() async throws {
        try await Self.play(devices: 2) { simulation in
            let (device, other) = (simulation.devices[0], simulation.devices[1])
            try await Self.shareOneRow(simulation)
            try await device.edit(step: 1, pick: 0, field: 1)  // completes it
            try await Self.pushLosingTheAnswer(simulation, 0)
            try await other.edit(step: 2, pick: 0, field: 0)  // the text, elsewhere
            try await Self.push(simulation, 1)
            try await device.edit(step: 3, pick: 0, field: 1)  // opens it again
            try await Self.push(simulation, 0)
            let onServer = try #require(try await simulation.serverRows().values.first)
            #expect(onServer["complete"] == .bool(false), "the change back reached the server")
            #expect(onServer["text"] == .string("s2"), "the other device's write stands")
        }
    }

    /// A tag added, its answer lost, then undone, meets another device's tag on the same row
    /// (412): the undone word leaves the server and the other device's word stays. The tags
    /// merge word by word, so the undo moves only its own word in the base copy.
    @Test func anUndoneTagWhoseAnswerWasLostLeavesTheServerAndAnotherDevicesTagStays() async throws {
        try await Self.play(devices: 2) { simulation in
            let (device, other) = (simulation.devices[0], simulation.devices[1])
            try await Self.shareOneRow(simulation)  // tagged milk
            try await device.edit(step: 1, pick: 4, field: 3)  // adds eggs
            try await Self.pushLosingTheAnswer(simulation, 0)
            try await other.edit(step: 2, pick: 8, field: 3)  // adds home, elsewhere
            try await Self.push(simulation, 1)
            #expect(try device.context.undo() != nil)
            try await Self.push(simulation, 0)
            let onServer = try #require(try await simulation.serverRows().values.first)
            #expect(onServer["tags"] == .string("home milk"))
        }
    }

    /// Found by the undo law once replies could be lost: an edit whose push reached the server
    /// but whose answer never came, undone back to the row's base copy, had its queued update
    /// dropped as if never sent, so the server kept the undone edit.
    @Test func anEditWhoseAnswerWasLostIsUndoneOnTheServerToo() async throws {
        try await Self.play(devices: 1) { simulation in
            let device = simulation.devices[0]
            try await device.insert(step: 0, pick: 0)
            try await Self.push(simulation, 0)
            let began = try device.rows().mapValues(ConvergenceLaws.values)
            try await device.edit(step: 1, pick: 0, field: 0)
            try await Self.pushLosingTheAnswer(simulation, 0)
            #expect(try device.context.undo() != nil)
            try await Self.push(simulation, 0)
            #expect(try await simulation.serverRows() == began)
            #expect(try device.context.pendingOperationsCount(table: LawDevice.table) == 0)
        }
    }

    /// Found as seed 0x673ec3302ec0340c: an edit of a row another device deleted, kept by
    /// "use mine", brings the row back (an undelete, then the edit). The edit's answer was lost;
    /// the next push met a live row, an edit conflict that knew nothing of the deletion, and
    /// the deletion was lost with no history anywhere.
    @Test func aDeletionUndoneByUseMineIsInTheHistoryThoughTheSettlementsAnswerWasLost() async throws {
        try await Self.play(devices: 2) { simulation in
            let (deleter, editor) = (simulation.devices[0], simulation.devices[1])
            try await Self.shareOneRow(simulation)
            try await editor.edit(step: 1, pick: 0, field: 1)
            try await deleter.delete(pick: 0)
            try await Self.push(simulation, 0)
            try simulation.startSync(1, pull: false)
            #expect(await simulation.deliverReads(of: 1) == "PATCH")
            await simulation.deliver(1, .delivered)  // 404: deleted
            #expect(await simulation.deliverReads(of: 1) == "POST")
            await simulation.deliver(1, .delivered)  // the undelete
            #expect(await simulation.deliverReads(of: 1) == "PATCH")
            await simulation.deliver(1, .replyLost)
            await simulation.drain()
            try await Self.push(simulation, 1)
            let id = "\(simulation.run)-d0-1"
            #expect(try await simulation.serverRows()[id] != nil, "use mine kept the row")
            let history = try editor.context.conflictLog().filter { $0.itemId == id }
            #expect(history.contains { $0.lostADeletion }, "the editor's conflict history of \(id): \(history)")
        }
    }

    /// Found as seed 0xcc121790856b5e7a: a device's unsent edits passed through a state (a tag
    /// added, then taken off) that another device then wrote and pushed. The first device's 412
    /// found that state in its undo journal, took the server's row for its own lost write, and
    /// sent its whole row over it: the other device's tag was lost with no conflict.
    @Test func anotherDevicesWriteOfAStateThisDevicePassedThroughIsMergedNotOverwritten() async throws {
        try await Self.play(devices: 2) { simulation in
            let (device, other) = (simulation.devices[0], simulation.devices[1])
            try await Self.shareOneRow(simulation)  // tagged milk
            try await device.edit(step: 1, pick: 4, field: 3)  // adds eggs
            try await device.edit(step: 2, pick: 4, field: 3)  // takes it off again
            try await device.edit(step: 3, pick: 8, field: 3)  // adds home
            try await other.edit(step: 4, pick: 4, field: 3)  // adds eggs, elsewhere
            try await Self.push(simulation, 1)
            try await Self.push(simulation, 0)
            let onServer = try #require(try await simulation.serverRows().values.first)
            #expect(onServer["tags"] == .string("eggs home milk"))
        }
    }

    /// Found as seed 0x4f9dc4782316744: an add whose answer was lost, deleted by another device
    /// before the add was sent again, came back as if restored on purpose, and the deletion was
    /// lost with no conflict recorded anywhere.
    @Test func anAddSentAgainOverItsRowDeletedElsewhereIsAConflictNotASilentRestore() async throws {
        try await Self.play(devices: 2) { simulation in
            let (adder, deleter) = (simulation.devices[0], simulation.devices[1])
            try await adder.insert(step: 0, pick: 0)
            try simulation.startSync(0, pull: false)
            #expect(await simulation.deliverReads(of: 0) == "POST")
            await simulation.deliver(0, .replyLost)
            await simulation.drain()
            try simulation.startSync(1, pull: true)
            await simulation.drain()
            try await deleter.delete(pick: 0)
            try await Self.push(simulation, 1)
            try await Self.push(simulation, 0)
            let id = "\(simulation.run)-d0-1"
            let history = try adder.context.conflictLog().filter { $0.itemId == id }
            #expect(history.count == 1, "the adder's conflict history of \(id): \(history)")
            #expect(history.first?.lostADeletion == true)
        }
    }

    /// Found as seed 0x27de8cc51d2309c6: a removed tag met another device's added one (412); the
    /// merge's send (the other's word, this one's removal) never arrived, and its record took the
    /// other device's word for this one's, so the next push's merge removed it.
    @Test func aMergesLostSendDoesNotMakeAnotherDevicesTagThisOnes() async throws {
        try await Self.play(devices: 2) { simulation in
            try await Self.tagOnBothSides(simulation)
            // A 412, then the merge's send lost on the way.
            try await Self.push(simulation, 0, patches: [.delivered, .lostOnTheWay])
            try await Self.push(simulation, 0)
            let onServer = try #require(try await simulation.serverRows().values.first)
            #expect(onServer["tags"] == .string("eggs"))
        }
    }

    /// The same history's second half: undoing a tag's removal after a merge brought another
    /// device's tag puts the removed word back beside it, rather than the whole value from before.
    @Test func undoingATagsRemovalAfterAMergeKeepsAnotherDevicesTag() async throws {
        try await Self.play(devices: 2) { simulation in
            let device = simulation.devices[0]
            try await Self.tagOnBothSides(simulation)
            try await Self.push(simulation, 0)  // a 412, merged
            #expect(try device.rows().values.first?["tags"] == .string("eggs"))
            #expect(try device.context.undo() != nil)
            #expect(try device.rows().values.first?["tags"] == .string("eggs milk"))
            try await Self.push(simulation, 0)
            let onServer = try #require(try await simulation.serverRows().values.first)
            #expect(onServer["tags"] == .string("eggs milk"))
        }
    }
}
