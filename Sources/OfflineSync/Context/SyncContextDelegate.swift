import Foundation
import TableProtocol

/// Hooks into a push: per operation, per conflict, and at the end (to resolve errors). Each is
/// awaited by the push; none is called on a queue of the SDK's choosing.
public protocol SyncContextDelegate: AnyObject, Sendable {
    /// Called for each operation sent alone; answers the server's item (nil for a delete), as
    /// `operation.execute()` does, or throws.
    func tableOperation(_ operation: TableOperation) async throws -> JSONObject?
    /// Called when every operation has been tried and some failed; resolve errors through the
    /// context before returning. Resolved errors are left out of the push's final error.
    func pushCompleted(errors: [OperationError], context: SyncContext) async
    /// Called for a conflict the table's merge policy does not settle by itself (a field changed on
    /// both sides, edit against delete, or any conflict with `.askAlways`); answer nil to leave it
    /// as a recorded operation error, as the reference SDK does.
    func resolve(_ conflict: SyncConflict) async -> ConflictResolution?
    /// True (the default) when `tableOperation` is overridden and must see every operation: the
    /// push then sends them one request each. Answer false to let it batch them where the server
    /// offers a batch endpoint (`tableOperation` is then called only for operations sent alone).
    var usesTableOperationHook: Bool { get }
}

extension SyncContextDelegate {
    /// Without an override the operation simply executes.
    public func tableOperation(_ operation: TableOperation) async throws -> JSONObject? {
        try await operation.execute()
    }

    /// Without an override the push assumes `tableOperation` matters and sends one request per operation.
    public var usesTableOperationHook: Bool { true }

    /// Without an override errors stay as they are.
    public func pushCompleted(errors: [OperationError], context: SyncContext) async {}

    /// Without an override conflicts become operation errors.
    public func resolve(_ conflict: SyncConflict) async -> ConflictResolution? { nil }
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
