import Foundation
import TableProtocol

/// Hooks into a push: per operation, per conflict, and at the end (to resolve errors).
/// Both are called on the context's callback queue.
public protocol SyncContextDelegate: AnyObject, Sendable {
    /// Called for each operation; must call `completion` once with the server item or an error.
    func tableOperation(_ operation: TableOperation, completion: @escaping @Sendable (Result<JSONObject?, SyncError>) -> Void)
    /// Called when every operation has been tried and some failed; resolve errors through the
    /// context, then call `completion`. Resolved errors are left out of the push's final error.
    func pushCompleted(errors: [OperationError], context: SyncContext, completion: @escaping @Sendable () -> Void)
    /// Called for a conflict the table's merge policy does not settle by itself (a field changed on
    /// both sides, edit against delete, or any conflict with `.askAlways`); answer nil to leave it
    /// as a recorded operation error, as the reference SDK does.
    func resolveConflict(_ conflict: SyncConflict, completion: @escaping @Sendable (ConflictResolution?) -> Void)
    /// True (the default) when `tableOperation` is overridden and must see every operation: the
    /// push then sends them one request each. Answer false to let it batch them where the server
    /// offers a batch endpoint (`tableOperation` is then called only for operations sent alone).
    var usesTableOperationHook: Bool { get }
}

extension SyncContextDelegate {
    /// Without an override the operation simply executes.
    public func tableOperation(_ operation: TableOperation, completion: @escaping @Sendable (Result<JSONObject?, SyncError>) -> Void) {
        operation.execute(completion: completion)
    }

    /// Without an override the push assumes `tableOperation` matters and sends one request per operation.
    public var usesTableOperationHook: Bool { true }

    /// Without an override errors stay as they are.
    public func pushCompleted(errors: [OperationError], context: SyncContext, completion: @escaping @Sendable () -> Void) {
        completion()
    }

    /// Without an override conflicts become operation errors.
    public func resolveConflict(_ conflict: SyncConflict, completion: @escaping @Sendable (ConflictResolution?) -> Void) {
        completion(nil)
    }
}

/// How to settle a recorded operation error; each applies atomically to the real operation.
public enum OperationErrorResolution: Sendable {
    /// Server wins: write this item locally and drop the operation.
    case cancelOperationAndUpdateItem(JSONObject)
    /// Drop the operation and the local item.
    case cancelOperationAndDiscardItem
    /// Keep the operation (retry on the next push) with this item written locally.
    case keepOperationAndUpdateItem(JSONObject)
    /// Change the operation's type, writing this item locally (or, for delete, as its snapshot).
    case changeOperationType(TableOperationType, JSONObject)
}
