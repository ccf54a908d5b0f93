import Foundation
import Synchronization
import TableProtocol

/// One queued change being pushed, as the delegate sees it: it may edit `item`, `execute()`
/// (even several times, e.g. after a 412 with the server's version), or `cancelPush()`.
public final class TableOperation: Sendable {
    /// What kind of change.
    public let type: TableOperationType
    /// The table.
    public let table: String
    /// The item's id.
    public let itemId: String
    /// The item's space (nil: the account's own namespace).
    public let space: String?
    /// The queue position.
    public let operationId: Int64

    /// What the delegate may change while the push waits for it.
    private struct Editable {
        var item: JSONObject
        var cancelled = false
    }

    private let state: Mutex<Editable>
    let remote: RemoteTable
    /// The server's state an update is based on (the item's base copy): an update sends the
    /// fields that differ from it (`PatchBody`).
    let base: JSONObject?

    init(queued: QueuedOperation, item: JSONObject, base: JSONObject?, remote: RemoteTable) {
        type = queued.type
        table = queued.table
        itemId = queued.itemId
        space = queued.space
        operationId = queued.id
        state = Mutex(Editable(item: item))
        self.base = base
        self.remote = remote
    }

    /// The item to send; for inserts and updates the current local row at push time.
    public var item: JSONObject {
        get { state.withLock { $0.item } }
        set { state.withLock { $0.item = newValue } }
    }

    /// Sends the operation with the current `item`; answers the server's item (nil for a 204 delete).
    /// Always throws a `SyncError` (a transport failure is `.pushAbortedNetwork`).
    public func execute() async throws -> JSONObject? {
        try await execute(sending: item, basedOn: base)
    }

    /// Sends the operation with `item` in place of its own, an update based on `reference` (a
    /// push sending it again on the server's version, based on the server's item).
    func execute(sending item: JSONObject, basedOn reference: JSONObject?) async throws -> JSONObject? {
        do {
            return try await send(item, basedOn: reference)
        } catch {
            throw SyncError.wrap(error)
        }
    }

    private func send(_ item: JSONObject, basedOn reference: JSONObject?) async throws -> JSONObject? {
        switch type {
        case .insert: return try await remote.insert(PatchBody.insert(item), features: "OL")
        case .update: return try await remote.update(PatchBody.update(item, since: reference), features: "OL")
        case .delete:
            do {
                return try await remote.delete(item, features: "OL")
            } catch let error as SyncError where error.statusCode == 404 && error.code != .itemMoved {
                return nil  // gone either way (a moved row is not gone: the deletion follows it)
            }
        }
    }

    /// Stops the push after this operation; it and every later one stay queued.
    public func cancelPush() { state.withLock { $0.cancelled = true } }

    var isCancelled: Bool { state.withLock { $0.cancelled } }
}
