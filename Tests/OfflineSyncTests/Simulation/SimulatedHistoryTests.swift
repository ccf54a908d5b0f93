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
            try simulation.startSync(0, pull: false)
            await simulation.drain()
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
            try await device.insert(step: 0, pick: 0)
            try simulation.startSync(0, pull: false)
            await simulation.drain()
            try simulation.startSync(1, pull: true)
            await simulation.drain()
            let began = try device.rows().mapValues(ConvergenceLaws.values)
            try await device.edit(step: 1, pick: 0, field: 0)  // the text
            try simulation.startSync(0, pull: false)
            #expect(await simulation.deliverReads(of: 0) == "PATCH")
            await simulation.deliver(0, .replyLost)
            await simulation.drain()
            try await other.edit(step: 2, pick: 0, field: 1)  // completion, elsewhere
            try simulation.startSync(1, pull: false)
            await simulation.drain()
            #expect(try device.context.undo() != nil)
            try simulation.startSync(0, pull: false)
            await simulation.drain()
            let row = try #require(try await simulation.serverRows().values.first)
            #expect(row["text"] == began.values.first?["text"], "the undo reached the server")
            #expect(row["complete"] == .bool(true), "the other device's write stands")
        }
    }

    /// Found by the undo law once replies could be lost: an edit whose push reached the server
    /// but whose answer never came, undone back to the row's base copy, had its queued update
    /// dropped as if never sent, so the server kept the undone edit.
    @Test func anEditWhoseAnswerWasLostIsUndoneOnTheServerToo() async throws {
        try await Self.play(devices: 1) { simulation in
            let device = simulation.devices[0]
            try await device.insert(step: 0, pick: 0)
            try simulation.startSync(0, pull: false)
            await simulation.drain()
            let began = try device.rows().mapValues(ConvergenceLaws.values)
            try await device.edit(step: 1, pick: 0, field: 0)
            try simulation.startSync(0, pull: false)
            #expect(await simulation.deliverReads(of: 0) == "PATCH")
            await simulation.deliver(0, .replyLost)
            await simulation.drain()
            #expect(try device.context.undo() != nil)
            try simulation.startSync(0, pull: false)
            await simulation.drain()
            #expect(try await simulation.serverRows() == began)
            #expect(try device.context.pendingOperationsCount(table: LawDevice.table) == 0)
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
            try simulation.startSync(1, pull: false)
            await simulation.drain()
            try simulation.startSync(0, pull: false)
            await simulation.drain()
            let id = "\(simulation.run)-d0-1"
            let history = try adder.context.conflictLog().filter { $0.itemId == id }
            #expect(history.count == 1, "the adder's conflict history of \(id): \(history)")
            #expect(history.first?.lostADeletion == true)
        }
    }
}
