import Foundation
@testable import OfflineSync
import PropertyBased
import TableProtocol
import Testing
import ServerTestSupport

/// The sync's laws over random histories: two or three devices, each with its own store file,
/// against one real server, making random writes (adds, edits of each field, tag additions and
/// removals, deletions) and random pushes, pulls, undos and restarts, interleaved at random.
/// A device settles a conflict that does not merge cleanly always one way (this device's values
/// or the server's), decided per device by the case. At the end every device pushes and pulls
/// until nothing is queued.
@Suite struct ConvergenceLawTests {
    /// Each step: which device acts and what it does, read from one number.
    static let steps = Gen.int(in: 0...9_999).array(of: 1...24)
    static let choices = Gen.int(in: 0...7)

    /// One played history and what it left.
    struct Played {
        var server: [String: JSONObject]
        var devices: [LawDevice]
        /// Every change a push (or a pull's push) carried and the server took or settled, with its push.
        var acknowledged: [(push: Int, device: Int, id: String, change: SentChange)]
    }

    static func play(_ steps: [Int], choices: Int) async throws -> Played {
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
        return Played(server: rows, devices: devices, acknowledged: acknowledged)
    }

    /// A row as the laws compare it: its values, tags as a set.
    static func values(_ row: JSONObject) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for field in ["text", "complete", "priority"] { values[field] = row[field] ?? .null }
        values["tags"] = .string(LawDevice.tags(row).sorted().joined(separator: " "))
        return values
    }

    @Test func everyDeviceEndsWithTheServersRowsAndNothingQueued() async throws {
        await propertyCheck(count: LawCases.storeCount, input: Self.steps, Self.choices) { steps, choices in
            let played = try await Self.play(steps, choices: choices)
            let server = played.server.mapValues(Self.values)
            for device in played.devices {
                #expect(try device.context.pendingOperationsCount(table: LawDevice.table) == 0, "device \(device.index)")
                #expect(try device.rows().mapValues(Self.values) == server, "device \(device.index)")
            }
        }
    }

    @Test func everyAcknowledgedChangeIsInTheEndStateOrInAConflictHistory() async throws {
        await propertyCheck(count: LawCases.storeCount, input: Self.steps, Self.choices) { steps, choices in
            let played = try await Self.play(steps, choices: choices)
            for sent in played.acknowledged {
                // Another push that touched the same thing (or deleted the row) may have replaced it.
                let replaced = played.acknowledged.contains { other in
                    other.push != sent.push && other.id == sent.id && (other.change.key == sent.change.key || other.change == .deleted || sent.change == .deleted)
                }
                if replaced { continue }
                let row = played.server[sent.id]
                let kept: Bool
                switch sent.change {
                case .field(let name, let value): kept = row?[name] == value
                case .tagAdded(let word): kept = row.map { LawDevice.tags($0).contains(word) } ?? false
                case .tagRemoved(let word): kept = row.map { !LawDevice.tags($0).contains(word) } ?? false
                case .deleted: kept = row == nil
                }
                if kept { continue }
                let history = try played.devices[sent.device].context.conflictLog().filter { $0.itemId == sent.id }
                let logged = history.contains { entry in
                    entry.fields.contains(sent.change.field) || entry.lost[sent.change.field] != nil
                        || (sent.change == .deleted && entry.lostADeletion)
                }
                #expect(logged, "device \(sent.device)'s \(sent.change) of \(sent.id) (push \(sent.push)) is neither on the server (\(String(describing: row))) nor in its conflict history (\(history)); every push of the row: \(played.acknowledged.filter { $0.id == sent.id }.map { "\($0.push)/d\($0.device): \($0.change)" })")
            }
        }
    }
}
