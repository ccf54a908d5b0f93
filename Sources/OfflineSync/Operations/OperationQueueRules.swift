import Synchronization
import TableProtocol

/// The operation queue's rules (the queue itself is `MS_TableOperations` in the store): how a
/// new local change joins what is already queued for its item (`OperationCollapse`), and which
/// operations are on the wire right now, which a change must not collapse into.
final class OperationQueueRules: Sendable {
    /// The operations being pushed right now (one, or a batch; never persisted: a crash leaves none).
    private let inFlight = Mutex<Set<Int64>>([])

    /// True while the operation is on the wire.
    func isInFlight(_ operationId: Int64) -> Bool { inFlight.withLock { $0.contains(operationId) } }

    /// True while no operation is on the wire.
    var nothingInFlight: Bool { inFlight.withLock { $0.isEmpty } }

    /// The operations are on the wire from now on.
    func sending(_ operationIds: some Sequence<Int64>) { inFlight.withLock { $0.formUnion(operationIds) } }

    /// The operations' answers arrived (or their push ended).
    func sent(_ operationIds: some Sequence<Int64>) { inFlight.withLock { $0.subtract(operationIds) } }

    /// Applies the collapse rules for a new local change (`current`: the stored item before it);
    /// must run inside a store write.
    func recordChange(_ type: TableOperationType, table: String, itemId: String, space: String?, snapshot: JSONObject?, current: JSONObject?,
                      in session: any SyncStoreSession) throws {
        try recordChange(type, table: table, itemId: itemId, space: space, snapshot: snapshot, current: current,
                         pending: try session.newestOperation(table: table, itemId: itemId, space: space), in: session)
    }

    /// The same, given the item's newest queued operation (`pending`), read by the caller in this
    /// write: a bulk insert reads those of a whole batch with one statement.
    func recordChange(_ type: TableOperationType, table: String, itemId: String, space: String?, snapshot: JSONObject?, current: JSONObject?,
                      pending: QueuedOperation?, in session: any SyncStoreSession) throws {
        if pending == nil {
            // With nothing queued the row (`current`) is the server's last version: keep it as the
            // base of a three-way merge (an insert has none).
            try session.setBaseItem(type == .insert ? nil : current, in: table, id: itemId, space: space)
        }
        let inFlight = pending.map { isInFlight($0.id) } ?? false
        // A pending insert with a base copy was sent before: its first send keeps one.
        let sentBefore = try pending?.type == .insert && type == .delete && !inFlight && session.baseItem(in: table, id: itemId, space: space) != nil
        switch OperationCollapse.decide(pending: pending?.type, inFlight: inFlight, sentBefore: sentBefore, new: type) {
        case .append(let new):
            _ = try session.appendOperation(table: table, itemId: itemId, space: space, type: new, snapshot: new == .delete ? snapshot : nil)
        case .keepPending:
            break
        case .dropPending:
            try session.removeOperation(id: pending!.id)
        case .turnPendingIntoDelete:
            try session.updateOperation(id: pending!.id, type: .delete, snapshot: snapshot)
        case .reject:
            throw SyncError.invalid("The \(type.rawValue) is not allowed due to an already pending \(pending!.type.rawValue) operation on item '\(itemId)'")
        }
    }
}
