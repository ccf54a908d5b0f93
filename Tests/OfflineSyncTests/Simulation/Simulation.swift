import Foundation
@testable import OfflineSync
import Synchronization
import TableProtocol

/// One history of devices syncing with the server, every choice made by a seeded scheduler: who
/// writes, who syncs, and for each request in flight whether it arrives, is lost on the way,
/// loses its reply, arrives twice, or finds its device killed; the server restarts between
/// requests. The devices are the SDK's own code on real store files; the server is its own
/// routes and storage, in process (`SimulatedServer`). The same seed plays the same history,
/// and `trace` tells it, one event a line.
final class Simulation {
    /// What befell one delivered request.
    enum Fate: String {
        /// The server answered and the reply came back.
        case delivered
        /// Lost on its way: the server never saw it.
        case lostOnTheWay = "lost on the way"
        /// The server did it, and the reply was lost.
        case replyLost = "reply lost"
        /// It reached the server twice (a retransmission), and the second reply came back.
        case duplicated
    }

    let seed: UInt64
    let run: String
    var random: SimulationRandom
    let server: SimulatedServer
    let network = SimulatedNetwork()
    let folder: URL
    /// The empty store each new device starts from (`LawDevice.makeTemplate`).
    let template: URL
    private(set) var devices: [LawDevice] = []
    private(set) var trace: [String] = []
    /// Every change a sync carried and the server took or settled (`ConvergenceLaws.Played`).
    private let acknowledgements = AcknowledgementLog()
    /// Devices killed while a request was out: every later request of theirs fails until their sync ends.
    private var dying: Set<Int> = []

    init(seed: UInt64, server: SimulatedServer, folder: URL, template: URL) {
        self.seed = seed
        self.server = server
        self.folder = folder
        self.template = template
        random = SimulationRandom(seed: seed)
        run = "s" + String(seed, radix: 16)
    }

    /// Adds a device with a new store that settles every conflict that does not merge cleanly as `choice` says.
    func addDevice(choice: ConflictResolution) throws {
        let index = devices.count
        devices.append(try LawDevice(index: index, run: run, serverURL: URL(string: "http://simulated.invalid")!, choice: choice,
                                     transport: network.link(for: index), folder: folder, template: template))
    }

    var acknowledged: [(push: Int, device: Int, id: String, change: SentChange)] { acknowledgements.entries }
    var undone: [(after: Int, device: Int, id: String, change: SentChange)] { acknowledgements.undone }

    func log(_ line: String) { trace.append(line.replacingOccurrences(of: run, with: "RUN")) }

    // MARK: Devices

    /// The devices with no sync running, which may write, undo or restart.
    var idleDevices: [Int] {
        let busy = Set(network.busyDevices)
        return devices.indices.filter { !busy.contains($0) }
    }

    /// Starts a push (or a pull, which pushes first) on an idle device; what it carried and the
    /// server took is recorded when it ends.
    func startSync(_ index: Int, pull: Bool) throws {
        let device = devices[index]
        let outgoing = try device.outgoing()
        log("d\(index) starts a \(pull ? "pull" : "push") of \(outgoing.count) changes")
        let log = acknowledgements
        network.start(device: index) {
            do {
                if pull { try await device.pull() } else { try await device.push() }
            } catch {
                // A lost request fails the sync; what the server took before it is still recorded.
            }
            let still = (try? device.context.pendingItemIds(table: LawDevice.table)) ?? Set(outgoing.map(\.id))
            log.record(device: index, taken: outgoing.filter { !still.contains($0.id) })
        }
    }

    /// A write a person makes on an idle device, read from one number: edits more often than the
    /// real-process laws, so that two devices' edits of one row cross often.
    func write(_ index: Int, step: Int, number: Int) async throws {
        let device = devices[index]
        let pick = number / 10
        switch number % 10 {
        case 0, 1, 2:
            try await device.insert(step: step, pick: pick)
            log("d\(index) inserts")
        case 3, 4, 5, 6, 7, 8:
            try await device.edit(step: step, pick: pick, field: pick / 7)
            log("d\(index) edits field \(pick / 7 % 4) of row \(pick)")
        default:
            try await device.delete(pick: pick)
            log("d\(index) deletes row \(pick)")
        }
    }

    // MARK: The wire

    /// Waits until every syncing device has sent its next request or finished.
    func settle() async { await network.settle() }

    /// Hands `device`'s waiting request to its fate.
    func deliver(_ device: Int, _ fate: Fate) async {
        guard let parked = network.take(from: device) else { return }
        let request = parked.request
        let line = "d\(device) \(request.method) \(request.url.path)"
        if dying.contains(device) {
            log("\(line): its device was killed")
            parked.continuation.resume(throwing: TransportError(description: "the device was killed"))
            return
        }
        switch fate {
        case .lostOnTheWay:
            log("\(line): lost on the way")
            parked.continuation.resume(throwing: TransportError(description: "connection refused (simulated)"))
        case .replyLost:
            let reply = await server.answer(request)
            log("\(line) → \(reply.status), reply lost")
            parked.continuation.resume(throwing: TransportError(description: "connection reset by peer (simulated)"))
        case .delivered:
            let reply = await server.answer(request)
            log("\(line) → \(reply.status)")
            parked.continuation.resume(returning: reply)
        case .duplicated:
            let first = await server.answer(request)
            let reply = await server.answer(request)
            log("\(line) → \(first.status), again → \(reply.status)")
            parked.continuation.resume(returning: reply)
        }
    }

    /// Kills a syncing device while its request is out (the request reached the server or not):
    /// the reply never arrives, its sync ends, and it starts again from its store file.
    func kill(_ device: Int, requestArrived: Bool) async throws {
        guard let parked = network.take(from: device) else { return }
        if requestArrived { _ = await server.answer(parked.request) }
        log("d\(device) killed during \(parked.request.method) \(parked.request.url.path)\(requestArrived ? ", which the server did" : "")")
        dying.insert(device)
        parked.continuation.resume(throwing: TransportError(description: "the device was killed"))
        while network.busyDevices.contains(device) {
            await settle()
            await deliver(device, .lostOnTheWay)
        }
        dying.remove(device)
        try devices[device].restart()
    }

    /// Delivers every request until no device is syncing, nothing lost.
    func drain() async {
        while true {
            await settle()
            guard let device = network.busyDevices.first else { return }
            await deliver(device, .delivered)
        }
    }

    func restartServer() async throws {
        log("the server restarts")
        try await server.restart()
    }

    /// Runs `work` with `device`'s client as its own sync, every request delivered; answers its result.
    func fetch<T: Sendable>(as index: Int, _ work: @escaping @Sendable (LawDevice) async throws -> T) async throws -> T {
        let device = devices[index]
        let box = Mutex<Result<T, any Error>?>(nil)
        network.start(device: index) {
            do {
                let value = try await work(device)
                box.withLock { $0 = .success(value) }
            } catch {
                box.withLock { $0 = .failure(error) }
            }
        }
        await drain()
        return try box.withLock { $0 }!.get()
    }

    /// Delivers `device`'s waiting reads (the server's capabilities, a pull's pages) until its
    /// next request is a write, and answers that write's method; nil when its sync ended first.
    func deliverReads(of device: Int) async -> String? {
        await settle()
        while let method = network.waiting(from: device)?.method, method == "GET" {
            await deliver(device, .delivered)
            await settle()
        }
        return network.waiting(from: device)?.method
    }

    /// The server's rows of this history, by id, as the laws compare them.
    func serverRows() async throws -> [String: [String: JSONValue]] {
        let remote = try await fetch(as: 0) { device in try await device.context.client!.table(LawDevice.table).queryAll(device.query) }
        return Dictionary(uniqueKeysWithValues: remote.items.map { ($0["id"]!.stringValue!, ConvergenceLaws.values($0)) })
    }

    /// What makes a history unfit to replay, in words (empty for a sound one).
    var premiseBroken: [String] {
        network.sawConcurrentRequests ? ["a device had two requests out at once: their order was the OS scheduler's, not the seed's"] : []
    }

    // MARK: Histories

    /// One choice of the scheduler.
    private enum Choice {
        case write(Int), undo(Int), restart(Int), sync(Int, pull: Bool), deliver(Int), kill(Int), restartServer
    }

    /// Plays `steps` choices a person makes (writes, undos, restarts, syncs on idle `devices`)
    /// among the network's: requests delivered, lost, answered twice or cut by a killed device,
    /// and server restarts. Returns once the steps are spent; syncs may still be running.
    func play(steps: inout Int, devices candidates: [Int], firstStep: Int = 0, pulls: Bool = true, undos: Bool = true) async throws {
        var step = firstStep
        while steps > 0 {
            await settle()
            let idle = idleDevices.filter(candidates.contains)
            var choices: [(weight: Int, value: Choice)] = []
            for device in idle {
                choices += [(8, .write(device)), (2, .restart(device)), (3, .sync(device, pull: false))]
                if pulls { choices.append((3, .sync(device, pull: true))) }
                if undos { choices.append((2, .undo(device))) }
            }
            for device in network.busyDevices { choices += [(12, .deliver(device)), (1, .kill(device))] }
            choices.append((1, .restartServer))
            switch random.weighted(choices) {
            case .write(let device):
                steps -= 1
                step += 1
                try await write(device, step: step, number: random.below(10_000))
            case .undo(let device):
                steps -= 1
                let undone = try devices[device].context.undo()
                log("d\(device) undoes\(undone == nil ? " nothing" : "")")
                for change in undone?.changes ?? [] {
                    acknowledgements.recordUndo(device: device, id: change.itemId, changes: SentChange.takenBack(by: change))
                }
            case .restart(let device):
                steps -= 1
                log("d\(device) restarts")
                try devices[device].restart()
            case .sync(let device, let pull):
                steps -= 1
                try startSync(device, pull: pull)
            case .deliver(let device):
                await deliver(device, random.weighted([(85, .delivered), (5, .lostOnTheWay), (5, .replyLost), (5, .duplicated)]))
            case .kill(let device):
                try await kill(device, requestArrived: random.chance(50))
            case .restartServer:
                try await restartServer()
            }
        }
    }
}

/// What each sync carried and the server took, numbered by sync in the order they ended.
final class AcknowledgementLog: Sendable {
    private let state = Mutex<(syncs: Int, entries: [(push: Int, device: Int, id: String, change: SentChange)],
                               undone: [(after: Int, device: Int, id: String, change: SentChange)])>((0, [], []))

    var entries: [(push: Int, device: Int, id: String, change: SentChange)] { state.withLock { $0.entries } }
    var undone: [(after: Int, device: Int, id: String, change: SentChange)] { state.withLock { $0.undone } }

    /// A device's undo took `changes` of item `id` back, after the pushes recorded so far.
    func recordUndo(device: Int, id: String, changes: [SentChange]) {
        state.withLock { state in
            for change in changes { state.undone.append((state.syncs, device, id, change)) }
        }
    }

    func record(device: Int, taken: [(id: String, change: SentChange)]) {
        state.withLock { state in
            state.syncs += 1
            for (id, change) in taken { state.entries.append((state.syncs, device, id, change)) }
        }
    }
}
