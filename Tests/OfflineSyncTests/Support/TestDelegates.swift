import Foundation
import OfflineSync
import Synchronization
import TableProtocol

/// A delegate that answers conflicts with a fixed strategy and records what it saw.
final class ConflictDelegate: SyncContextDelegate, Sendable {
    enum Strategy { case useClient, useServer, cancel, fail }

    let strategy: Strategy
    private let state = Mutex(State())

    private struct State {
        var conflicts: [(client: JSONObject, server: JSONObject)] = []
        var completedErrors: [[OperationError]] = []
        var resolveInPushCompleted: OperationErrorResolution?
    }

    /// Every conflict seen, in order.
    var conflicts: [(client: JSONObject, server: JSONObject)] { state.withLock { $0.conflicts } }
    /// The errors of each `pushCompleted` call.
    var completedErrors: [[OperationError]] { state.withLock { $0.completedErrors } }
    /// Applied to every error in `pushCompleted`, when set.
    var resolveInPushCompleted: OperationErrorResolution? {
        get { state.withLock { $0.resolveInPushCompleted } }
        set { state.withLock { $0.resolveInPushCompleted = newValue } }
    }

    init(_ strategy: Strategy) { self.strategy = strategy }

    func tableOperation(_ operation: TableOperation) async throws -> JSONObject? {
        do {
            return try await operation.execute()
        } catch let error as SyncError where error.isConflict {
            state.withLock { $0.conflicts.append((operation.item, error.serverItem!)) }
            switch strategy {
            case .useClient:
                // Retry with the server's version, as the app's "Use Client" does.
                var item = operation.item
                item["version"] = error.serverItem!["version"]
                operation.item = item
                return try await operation.execute()
            case .useServer:
                return error.serverItem
            case .cancel:
                operation.cancelPush()
                throw error
            case .fail:
                throw error
            }
        }
    }

    func pushCompleted(errors: [OperationError], context: SyncContext) async {
        state.withLock { $0.completedErrors.append(errors) }
        if let resolution = resolveInPushCompleted {
            for error in errors { try? context.resolve(error, resolution) }
        }
    }
}
