import OfflineSync
import PropertyBased
import Testing

/// Operation collapse's law: whatever local writes an item goes through, the server ends where
/// sending every write one by one would have left it.
@Suite struct CollapseLawTests {
    /// One item as the server holds it: its value, or none (never made, or deleted).
    typealias ServerState = Int?

    /// A random history: whether the server had the item at the start, then each step's choice
    /// among the writes that are possible at that point (the item's value is the step's number).
    static let history = Gen.bool().map { $0 }
    static let steps = Gen.int(in: 0...1).array(of: 0...12)

    /// Plays the history: the server as one-by-one sends leave it, and as the collapsed queue does.
    static func play(synced: Bool, choices: [Int]) -> (oneByOne: ServerState, collapsed: ServerState, queue: [TableOperationType]) {
        var server: ServerState = synced ? 0 : nil
        var local: ServerState = server
        var oneByOne = server
        var queue: [TableOperationType] = []
        for (step, choice) in choices.enumerated() {
            let value = step + 1
            // Present here: update or delete; absent: insert.
            let write: TableOperationType = local == nil ? .insert : (choice == 0 ? .update : .delete)
            switch OperationCollapse.decide(pending: queue.last, inFlight: false, new: write) {
            case .reject: continue  // the store refuses the write: neither history has it
            case .append(let type): queue.append(type)
            case .keepPending: break
            case .dropPending: queue.removeLast()
            case .turnPendingIntoDelete: queue[queue.count - 1] = .delete
            }
            local = write == .delete ? nil : value
            oneByOne = local
        }
        // The push sends what is queued, each insert or update with the row as it is now.
        for type in queue { server = type == .delete ? nil : local }
        return (oneByOne, server, queue)
    }

    @Test func collapsedOperationsLeaveTheServerWhereTheUncollapsedOnesWould() async {
        await propertyCheck(count: LawCases.count, input: Self.history, Self.steps) { synced, choices in
            let played = Self.play(synced: synced, choices: choices)
            #expect(played.collapsed == played.oneByOne, "queue \(played.queue)")
        }
    }

    @Test func anItemHoldsAtMostOneQueuedOperation() async {
        await propertyCheck(count: LawCases.count, input: Self.history, Self.steps) { synced, choices in
            #expect(Self.play(synced: synced, choices: choices).queue.count <= 1)
        }
    }
}
