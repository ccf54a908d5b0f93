import Foundation
@testable import OfflineSync
import PropertyBased
import TableProtocol
import Testing
import ServerTestSupport

/// The sync's laws over random histories, as the real-process cross-check of `SimulatedLawTests`
/// (tens of cases: the simulation must not be the only thing that meets a real socket): two or
/// three devices, each with its own store file, against one real server process, making random writes (adds, edits of each field, tag additions and
/// removals, deletions) and random pushes, pulls, undos and restarts, interleaved at random.
/// A device settles a conflict that does not merge cleanly always one way (this device's values
/// or the server's), decided per device by the case. At the end every device pushes and pulls
/// until nothing is queued.
@Suite struct ConvergenceLawTests {
    /// Each step: which device acts and what it does, read from one number.
    static let steps = Gen.int(in: 0...9_999).array(of: 1...24)
    static let choices = Gen.int(in: 0...7)

    static func play(_ steps: [Int], choices: Int) async throws -> ConvergenceLaws.Played {
        let server = try await SharedServerProcess.shared.get()
        let run = "r" + UUID().uuidString.prefix(8).lowercased()
        let count = 2 + choices % 2
        let devices = try (0..<count).map { index in
            try LawDevice(index: index, run: run, serverURL: server.baseURL, choice: (choices >> (1 + index)) & 1 == 0 ? .client : .server)
        }
        var acknowledged: [(Int, Int, String, SentChange)] = []
        var pushes = 0
        // A pull pushes what is queued first, as the reference SDK's does: both are tracked.
        func sync(_ device: LawDevice, _ work: (LawDevice) async throws -> Void) async throws {
            let outgoing = try device.outgoing()
            try await work(device)
            pushes += 1
            // A row still queued after the push was not taken (an error recorded for it).
            let still = try device.context.pendingItemIds(table: LawDevice.table)
            for (id, change) in outgoing where !still.contains(id) { acknowledged.append((pushes, device.index, id, change)) }
        }
        for (step, number) in steps.enumerated() {
            let device = devices[number % count]
            let pick = number / 10
            switch (number / count) % 10 {
            case 0, 1: try await device.insert(step: step, pick: pick)
            case 2, 3: try await device.edit(step: step, pick: pick, field: pick / 7)
            case 4: try await device.delete(pick: pick)
            case 5, 6: try await sync(device) { try await $0.push() }
            case 7: try await sync(device) { try await $0.pull() }
            case 8: _ = try device.context.undo()
            default: try device.restart()
            }
        }
        // Until nothing is queued anywhere: a device's push may meet a conflict only a later pull shows.
        for _ in 0..<3 {
            for device in devices {
                try await sync(device) { try await $0.push() }
                try await sync(device) { try await $0.pull() }
            }
        }
        let remote = try await devices[0].context.client!.table(LawDevice.table).queryAll(devices[0].query)
        let rows = Dictionary(uniqueKeysWithValues: remote.items.map { ($0["id"]!.stringValue!, $0) })
        return ConvergenceLaws.Played(server: rows, devices: devices, acknowledged: acknowledged)
    }

    @Test func everyDeviceEndsWithTheServersRowsAndNothingQueued() async throws {
        await propertyCheck(count: LawCases.realProcessCount, input: Self.steps, Self.choices) { steps, choices in
            let played = try await Self.play(steps, choices: choices)
            for broken in try ConvergenceLaws.everyDeviceEndsWithTheServersRows(played) { Issue.record(Comment(rawValue: broken)) }
            for broken in try ConvergenceLaws.everyRowShowsOnceAndEveryCycleIsBrokenAlike(played) { Issue.record(Comment(rawValue: broken)) }
            for broken in try ConvergenceLaws.everyDeviceShowsOneOrder(played) { Issue.record(Comment(rawValue: broken)) }
        }
    }

    @Test func everyAcknowledgedChangeIsInTheEndStateOrInAConflictHistory() async throws {
        await propertyCheck(count: LawCases.realProcessCount, input: Self.steps, Self.choices) { steps, choices in
            let played = try await Self.play(steps, choices: choices)
            for broken in try ConvergenceLaws.everyAcknowledgedChangeIsKept(played) { Issue.record(Comment(rawValue: broken)) }
        }
    }
}
