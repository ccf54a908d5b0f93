import Foundation
import OfflineSync
import Synchronization
import TableProtocol

/// The sync context's delegate: answers the conflicts the SDK's field merge could not settle,
/// by the current `ConflictPolicy`. While asking, an answer marked "apply to all" answers the
/// rest of the same sync.
final class TodoConflictResolver: SyncContextDelegate, Sendable {
    /// It answers conflicts only, so a push may send operations in batches.
    var usesTableOperationHook: Bool { false }

    private struct State {
        var policy: ConflictPolicy
        /// Questions asked in the current sync.
        var asked = 0
        /// The answer the person gave for the rest of the current sync.
        var forTheRest: ConflictChoice?
    }

    private let state: Mutex<State>

    init(policy: ConflictPolicy) { state = Mutex(State(policy: policy)) }

    var policy: ConflictPolicy {
        get { state.withLock { $0.policy } }
        set { state.withLock { $0.policy = newValue } }
    }

    /// Starts a new sync: earlier "apply to all" answers no longer hold.
    func beginSync() {
        state.withLock { $0.asked = 0; $0.forTheRest = nil }
    }

    func resolve(_ conflict: SyncConflict) async -> ConflictResolution? {
        let (policy, forTheRest, asked) = state.withLock { state -> (ConflictPolicy, ConflictChoice?, Int) in
            state.asked += 1
            return (state.policy, state.forTheRest, state.asked)
        }
        switch policy {
        case .fail: return nil
        case .always(let choice): return choice.resolution
        case .ask(let ask):
            if let forTheRest { return forTheRest.resolution }
            let answer = await ask(ConflictPrompt(conflict, offersApplyToAll: asked > 1))
            if answer.applyToAll { state.withLock { $0.forTheRest = answer.choice } }
            return answer.choice.resolution
        }
    }
}
