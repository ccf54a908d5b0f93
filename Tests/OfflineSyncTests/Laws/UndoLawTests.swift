import Foundation
import OfflineSync
import PropertyBased
import TableProtocol
import Testing
import ServerTestSupport

/// Undo's law over random histories against a real server process (the cross-check of the
/// simulated one in `SimulatedLawTests`): whatever local writes a device
/// makes (adds, edits of each field, tag changes, deletions), with pushes and restarts between
/// them, undoing every step brings the store, and after a push the server, back to where they
/// began.
@Suite struct UndoLawTests {
    static let steps = Gen.int(in: 0...9_999).array(of: 1...16)
    static let start = Gen.int(in: 1...4)

    @Test func undoingEveryStepReturnsTheStoreAndTheServerToWhereTheyBegan() async throws {
        await propertyCheck(count: LawCases.realProcessCount, input: Self.steps, Self.start) { steps, start in
            let server = try await SharedServerProcess.shared.get()
            let run = "u" + UUID().uuidString.prefix(8).lowercased()
            // The rows it begins with come from another device, so the undo journal starts empty.
            let other = try LawDevice(index: 1, run: run, serverURL: server.baseURL, choice: .client)
            for step in 0..<start { try await other.insert(step: step, pick: step) }
            try await other.push()
            let device = try LawDevice(index: 0, run: run, serverURL: server.baseURL, choice: .client)
            try await device.pull()
            let began = try device.rows().mapValues(ConvergenceLaws.values)
            for (step, number) in steps.enumerated() {
                let pick = number / 10
                switch number % 10 {
                case 0, 1: try await device.insert(step: start + step, pick: pick)
                case 2, 3, 4, 5: try await device.edit(step: start + step, pick: pick, field: pick / 7)
                case 6: try await device.delete(pick: pick)
                case 7, 8: try await device.push()
                default: try device.restart()
                }
            }
            var undone = 0
            while try device.context.undo() != nil { undone += 1 }
            #expect(try device.rows().mapValues(ConvergenceLaws.values) == began, "after \(undone) undo steps")
            try await device.push()
            let remote = try await device.context.client!.table(LawDevice.table).queryAll(device.query)
            let onServer = Dictionary(uniqueKeysWithValues: remote.items.map { ($0["id"]!.stringValue!, ConvergenceLaws.values($0)) })
            #expect(onServer == began)
        }
    }
}
