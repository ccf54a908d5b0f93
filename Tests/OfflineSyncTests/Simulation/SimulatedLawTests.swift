import Foundation
@testable import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// The sync's store laws in the deterministic simulation (`Simulation`): two or three devices on
/// real store files and the server's own routes, in one process, with a seeded scheduler deciding
/// every interleaving and fault. A thousand histories run in CI and 100,000 in `make fuzz`, in
/// four shards side by side; a broken one prints the seed that replays it.
/// `ConvergenceLawTests` and `UndoLawTests` keep the same laws over real sockets and a server
/// process, for tens of cases.
@Suite struct SimulatedLawTests {
    /// One server per law's shard (a case's rows carry its run, so cases never see each other's).
    static func server() async throws -> SimulatedServer {
        try await SimulatedServer(folder: LawStorage.folder())
    }

    /// A convergence history: random writes, undos, restarts and syncs on each device, requests
    /// delivered, lost, answered twice or cut by a killed device, the server restarting; then
    /// everything delivered and every device syncing until nothing is queued.
    static func playConvergence(seed: UInt64, server: SimulatedServer, folder: URL) async throws -> (Simulation, ConvergenceLaws.Played) {
        let simulation = Simulation(seed: seed, server: server, folder: folder, template: server.deviceTemplate)
        let count = 2 + simulation.random.below(2)
        for _ in 0..<count { try simulation.addDevice(choice: simulation.random.chance(50) ? .client : .server) }
        var steps = 1 + simulation.random.below(24)
        try await simulation.play(steps: &steps, devices: Array(0..<count))
        await simulation.drain()
        // Until a round in which no device had anything to send (at most three): a device's push
        // may meet a conflict only a later pull shows, and after such a round every device has
        // pulled the server's last state.
        for _ in 0..<3 {
            var sent = false
            for device in 0..<count {
                sent = try simulation.devices[device].context.pendingOperationsCount(table: LawDevice.table) > 0 || sent
                try simulation.startSync(device, pull: false)
                await simulation.drain()
                try simulation.startSync(device, pull: true)
                await simulation.drain()
            }
            if !sent { break }
        }
        let remote = try await simulation.fetch(as: 0) { device in try await device.context.client!.table(LawDevice.table).queryAll(device.query) }
        let rows = Dictionary(uniqueKeysWithValues: remote.items.map { ($0["id"]!.stringValue!, $0) })
        return (simulation, ConvergenceLaws.Played(server: rows, devices: simulation.devices, acknowledged: simulation.acknowledged, undone: simulation.undone))
    }

    /// Both convergence laws, each over every history: every device ends with the server's rows
    /// and nothing queued; every acknowledged change is in the end state or in a conflict history.
    @Test(arguments: SimulatedCases.shards)
    func everyDeviceEndsWithTheServersRowsAndEveryAcknowledgedChangeIsKept(shard: Int) async throws {
        let seeds = SimulatedCases.seeds(shard: shard)
        guard !seeds.isEmpty else { return }
        let server = try await Self.server()
        try await SimulatedCases.check("the convergence laws", seeds: seeds) { seed, folder in
            let (simulation, played) = try await Self.playConvergence(seed: seed, server: server, folder: folder)
            let ends = try ConvergenceLaws.everyDeviceEndsWithTheServersRows(played).map { "every device ends with the server's rows: " + $0 }
            let kept = try ConvergenceLaws.everyAcknowledgedChangeIsKept(played).map { "every acknowledged change is kept: " + $0 }
            let nested = try ConvergenceLaws.everyRowShowsOnceAndEveryCycleIsBrokenAlike(played).map { "every row shows once, cycles broken alike: " + $0 }
            let ordered = try ConvergenceLaws.everyDeviceShowsOneOrder(played).map { "every device shows one order: " + $0 }
            return (ends + kept + nested + ordered + simulation.premiseBroken, simulation.trace)
        }
        await server.close()
    }

    /// Histories in which a device undid a change the server had already taken (a deletion whose
    /// undo came back as the device was killed mid-request; an edit whose answer was lost): the
    /// person took the change back, so the law does not ask the server to keep it. Found as
    /// the first two seeds, which broke the law before it knew of undos; the third lost a tag
    /// when an undo after a lost answer moved a word set's base copy; in the fourth, an undone
    /// move (`order`, whose clashes the server wins) whose answer was lost stayed on the server
    /// after another device wrote the row, and that device's acknowledged value was lost. A
    /// fifth (an undo whose own answer was lost too) played another history, with no undo, once
    /// pulls sent fewer requests; it is written out step by step in `SimulatedHistoryTests`.
    @Test(arguments: [0xc684_acad_259d_5e1d, 0xdb1f_6a52_79f5_0572, 0x8f0a_0859_e847_3f20, 0xb0f6_5ba4_ce88_04ba] as [UInt64])
    func aChangeItsDeviceUndidAfterTheServerTookItIsNotAskedToBeKept(_ seed: UInt64) async throws {
        let server = try await Self.server()
        let folder = try LawStorage.folder()
        defer { LawStorage.remove(folder) }
        let (simulation, played) = try await Self.playConvergence(seed: seed, server: server, folder: folder)
        #expect(!played.undone.isEmpty, "the history undoes a change")
        #expect(try ConvergenceLaws.everyDeviceEndsWithTheServersRows(played) == [])
        #expect(try ConvergenceLaws.everyAcknowledgedChangeIsKept(played) == [], "\(simulation.trace.joined(separator: "\n"))")
        await server.close()
    }

    /// Histories that broke the convergence laws once the push kept what its sends carried, or
    /// before: a device changed a field back by hand after its send's answer was lost
    /// (8c044fc0f340849e); a settlement's undelete whose answer was lost (673ec3302ec0340c);
    /// another device wrote a state this one had only passed through (cc121790856b5e7a); a
    /// body of every field recorded the server's values as this device's (a63e78ae22082e3d); a
    /// merge's lost send recorded another device's tag as this one's, and an undo put a tag set
    /// back whole over it (27de8cc51d2309c6).
    @Test(arguments: [0x8c04_4fc0_f340_849e, 0x673e_c330_2ec0_340c, 0xcc12_1790_856b_5e7a, 0xa63e_78ae_2208_2e3d,
                      0x27de_8cc5_1d23_09c6] as [UInt64])
    func theConvergenceLawsHoldOnTheHistoriesThatBrokeThem(_ seed: UInt64) async throws {
        let server = try await Self.server()
        let folder = try LawStorage.folder()
        defer { LawStorage.remove(folder) }
        let (simulation, played) = try await Self.playConvergence(seed: seed, server: server, folder: folder)
        #expect(try ConvergenceLaws.everyDeviceEndsWithTheServersRows(played) == [])
        #expect(try ConvergenceLaws.everyAcknowledgedChangeIsKept(played) == [], "\(simulation.trace.joined(separator: "\n"))")
        await server.close()
    }

    /// An undo history: one device writes and syncs (replies lost, restarts, kills), then undoes
    /// every step and pushes; answers what broke, with the trace.
    static func playUndo(seed: UInt64, server: SimulatedServer, folder: URL) async throws -> (broken: [String], trace: [String]) {
        let simulation = Simulation(seed: seed, server: server, folder: folder, template: server.deviceTemplate)
        // The rows it begins with come from another device, so the undo journal starts empty.
        try simulation.addDevice(choice: .client)
        try simulation.addDevice(choice: .client)
        let (device, other) = (simulation.devices[0], simulation.devices[1])
        let start = 1 + simulation.random.below(4)
        for step in 0..<start { try await other.insert(step: step, pick: step) }
        try simulation.startSync(1, pull: false)
        await simulation.drain()
        try simulation.startSync(0, pull: true)
        await simulation.drain()
        let began = try device.rows().mapValues(ConvergenceLaws.values)
        var steps = 1 + simulation.random.below(16)
        try await simulation.play(steps: &steps, devices: [0], firstStep: start, pulls: false, undos: false)
        await simulation.drain()
        var undone = 0
        while try device.context.undo() != nil { undone += 1 }
        var broken: [String] = simulation.premiseBroken
        let rows = try device.rows().mapValues(ConvergenceLaws.values)
        if rows != began { broken.append("after \(undone) undo steps the store holds \(rows), where it began with \(began)") }
        try simulation.startSync(0, pull: false)
        await simulation.drain()
        let onServer = try await simulation.serverRows()
        if onServer != began { broken.append("after \(undone) undo steps and a push the server holds \(onServer), where it began with \(began)") }
        return (broken, simulation.trace)
    }

    @Test(arguments: SimulatedCases.shards)
    func undoingEveryStepReturnsTheStoreAndTheServerToWhereTheyBegan(shard: Int) async throws {
        let seeds = SimulatedCases.seeds(shard: shard)
        guard !seeds.isEmpty else { return }
        let server = try await Self.server()
        try await SimulatedCases.check("undoing every step returns to the start", seeds: seeds) { seed, folder in
            try await Self.playUndo(seed: seed, server: server, folder: folder)
        }
        await server.close()
    }

    /// Found once the push kept what its sends carried: a delete that an unanswered update
    /// collapsed into, undone, left the update without that record (the first); a conflict's
    /// settlement sent again, that answer lost too, and its values were in no record (the second).
    @Test(arguments: [0x3a10_5b62_77a4_cab0, 0xe188_8b27_58d6_c28f] as [UInt64])
    func undoingEveryStepAfterLostAnswersReturnsToTheStart(_ seed: UInt64) async throws {
        let server = try await Self.server()
        let folder = try LawStorage.folder()
        defer { LawStorage.remove(folder) }
        let (broken, trace) = try await Self.playUndo(seed: seed, server: server, folder: folder)
        #expect(broken == [], "\(trace.joined(separator: "\n"))")
        await server.close()
    }

    @Test func aSeedPlaysTheSameHistoryEveryTime() async throws {
        let seed = SimulatedCases.replayed ?? UInt64.random(in: .min ... .max)
        var traces: [[String]] = []
        for _ in 0..<2 {
            let server = try await Self.server()
            let folder = try LawStorage.folder()
            let (simulation, _) = try await Self.playConvergence(seed: seed, server: server, folder: folder)
            traces.append(simulation.trace)
            await server.close()
            LawStorage.remove(folder)
        }
        // Every history tells at least its one step and each of two devices' settling push and pull
        // (a random seed's history told 10 lines, and a guard of more than 10 failed).
        #expect(traces[0].count >= 5)
        #expect(traces[0] == traces[1], "seed 0x\(String(seed, radix: 16)) played two histories")
    }
}
