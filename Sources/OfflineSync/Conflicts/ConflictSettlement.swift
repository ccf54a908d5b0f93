import Foundation
import TableProtocol

/// Settles the conflict one pushed operation met: a clean field merge is sent without asking
/// (again while the server moves on); anything else goes to the delegate, and its answer is sent.
/// Each settlement comes back with its conflict-log entry, for the store write that goes with it.
struct ConflictSettlement {
    let context: SyncContext
    let queued: QueuedOperation
    let operation: TableOperation
    let remote: RemoteTable
    /// An insert sent before by a push that never saw its answer (`PushRun.Pending.resent`).
    var resent = false

    /// How the push goes on.
    enum Outcome {
        /// The server now holds what was settled: finish the operation with its answer (nil for a delete).
        case sent(JSONObject?, ConflictLogEntry?)
        /// The server's state stays: drop the operation and keep the server's item (nil: it is deleted).
        case serverKept(JSONObject?, ConflictLogEntry)
        /// The push stops; the operation stays queued.
        case cancelled(ConflictLogEntry)
        /// Not settled: the operation's error to record (or to abort on).
        case unsettled(SyncError)
    }

    /// A server that keeps moving on gets this many rounds before the conflict is recorded.
    static let maximumRounds = 10

    private var policy: MergePolicy { context.dataSource.definition(of: queued.table)?.mergePolicy ?? .askAlways }

    /// Settles `failure` if it is a conflict, against the item's base copy; nil when it is some other error.
    func settle(_ failure: SyncError, base: () throws -> JSONObject?) async throws -> Outcome? {
        guard Self.kind(of: failure, type: queued.type) != nil else { return nil }
        let base = try base()
        let local = operation.item
        var error = failure
        for _ in 0..<Self.maximumRounds {
            guard let kind = Self.kind(of: error, type: queued.type) else { return .unsettled(error) }
            var server = error.serverItem
            if kind == .deletedOnServer, server == nil { server = try? await remote.readIncludingDeleted(id: queued.itemId) }
            if queued.type == .delete, Self.isDeleted(server) { return .sent(nil, nil) }  // gone either way
            do {
                return try await settleRound(kind: kind, base: base, local: local, server: server, error: error)
            } catch let failed {
                error = SyncError.wrap(failed)
                if error.underlying is TransportError || Self.kind(of: error, type: queued.type) == nil { return .unsettled(error) }
            }
        }
        return .unsettled(error)
    }

    /// One round against the server's current state (a new conflict on sending throws).
    private func settleRound(kind: SyncConflict.Kind, base: JSONObject?, local: JSONObject, server: JSONObject?,
                             error: SyncError) async throws -> Outcome {
        // Re-inserting an id the server holds deleted (a restore, an import): this device means to
        // create it. Not an insert sent before whose answer was lost: that send made the row, and
        // another device deleted it since, a conflict like an edit of a deleted item.
        if queued.type == .insert, kind == .deletedOnServer, !resent { return .sent(try await recreate(local, over: server), nil) }
        let rules = policy == .fieldMerge ? context.dataSource.definition(of: queued.table)?.mergeRules ?? [:] : [:]
        let conflict = SyncConflict(kind: kind, table: queued.table, itemId: queued.itemId, space: queued.space, base: base, local: local, server: server, rules: rules)
        if kind == .edit, let server, PushRun.sameContent(local, server) { return .sent(server, nil) }  // nothing differs
        if kind == .edit, base != nil, conflict.comparison.changedOnServer.isEmpty {
            // Nobody else changed the row since its base: the server's version moved by this
            // device's own unanswered send. No conflict: the change goes on the server's version.
            return .sent(try await update(local, on: server), nil)
        }
        let automatic = policy == .fieldMerge && conflict.mergesCleanly
        let resolution: ConflictResolution
        if automatic {
            resolution = .merged(conflict.comparison.merged)
        } else {
            guard let answer = await ask(conflict) else { return .unsettled(Self.unsettledError(conflict, error)) }
            resolution = answer
        }
        switch resolution {
        case .cancel:
            operation.cancelPush()
            return .cancelled(entry(conflict, .cancel, final: nil))
        case .server:
            if kind == .edit, policy == .fieldMerge, conflict.base != nil, let server,
               !PushRun.sameContent(conflict.comparison.merged, server) {
                // The server's values for the clashing fields; this device's other changes still go.
                let merged = conflict.comparison.merged
                return .sent(try await update(merged, on: server), entry(conflict, .server, final: merged))
            }
            let kept = kind == .deletedOnServer ? nil : server
            return .serverKept(kept, entry(conflict, .server, final: kept))
        case .client:
            let mine = policy == .fieldMerge && conflict.base != nil ? conflict.comparison.takingLocal(local) : local
            return try await send(mine, conflict, resolution: .client)
        case .merged(let item):
            return try await send(item, conflict, resolution: automatic ? .merged : .fields)
        }
    }

    /// Sends the settled item: an update, a delete anyway, or a re-creation.
    private func send(_ item: JSONObject, _ conflict: SyncConflict, resolution: ConflictLogEntry.Resolution) async throws -> Outcome {
        switch conflict.kind {
        case .edit:
            return .sent(try await update(item, on: conflict.server), entry(conflict, resolution, final: item))
        case .deletedOnServer:
            // The history is written before the undelete: once that reaches the server, a lost
            // answer or a killed app leaves a live row, and the next push's conflict with it
            // knows nothing of the deletion (the simulation's seed 673ec3302ec0340c lost one so).
            try log(entry(conflict, resolution, final: item))
            return .sent(try await recreate(item, over: conflict.server), nil)
        case .deletedLocally where resolution == .client:
            // Written first for the same reason: a deletion that reached the server with its
            // answer lost is gone either way at the next push, and the server's values with it.
            try log(entry(conflict, resolution, final: nil))
            var doomed = item
            doomed[SystemProperty.version] = conflict.server?[SystemProperty.version]
            return .sent(try await remote.delete(doomed, features: "OL"), nil)
        case .deletedLocally:
            // The delegate's own item instead of the delete: it stays, with these values.
            let kept = try await update(item, on: conflict.server)
            return .serverKept(kept, entry(conflict, resolution, final: kept))
        }
    }

    private func update(_ item: JSONObject, on server: JSONObject?) async throws -> JSONObject {
        var item = item
        item[SystemProperty.id] = .string(queued.itemId)
        item[SystemProperty.version] = server?[SystemProperty.version]
        let body = PatchBody.update(item, since: server)
        return try await UnansweredSends.send(body, on: server, for: queued, in: context.dataSource) { try await remote.update(body, features: "OL") }
    }

    /// Brings an item back on the server: undelete its row and write these values, or insert it
    /// when the server has no row at all.
    private func recreate(_ item: JSONObject, over server: JSONObject?) async throws -> JSONObject {
        let restored: JSONObject
        do {
            restored = try await remote.undelete(id: queued.itemId, version: server?[SystemProperty.version]?.stringValue)
        } catch let error as SyncError where error.statusCode == 404 && server == nil {
            var fresh = item
            fresh[SystemProperty.id] = .string(queued.itemId)
            return try await remote.insert(PatchBody.insert(fresh), features: "OL")
        }
        return try await update(item, on: restored)
    }

    private func log(_ entry: ConflictLogEntry) throws {
        _ = try context.dataSource.write { try $0.addConflict(entry) }
    }

    private func ask(_ conflict: SyncConflict) async -> ConflictResolution? {
        guard let delegate = context.delegate else { return nil }
        return await delegate.resolve(conflict)
    }

    /// The log entry of a settlement whose outcome on the server is `final` (nil: deleted there).
    private func entry(_ conflict: SyncConflict, _ resolution: ConflictLogEntry.Resolution, final: JSONObject?) -> ConflictLogEntry {
        let comparison = conflict.comparison
        let fields = resolution == .merged ? Self.union(comparison.changedLocally, comparison.changedOnServer) : comparison.clashingFields
        return ConflictLogEntry(table: conflict.table, itemId: conflict.itemId, space: conflict.space, kind: conflict.kind, resolution: resolution, at: Date(),
                                fields: fields, base: conflict.base, local: conflict.local, server: conflict.server,
                                lost: resolution == .cancel ? JSONObject() : Self.lost(conflict, final: final))
    }

    /// The values no side keeps: a side's own changes that the final state does not hold, or
    /// the whole item (or the deletion) when it disappears or comes back.
    static func lost(_ conflict: SyncConflict, final: JSONObject?) -> JSONObject {
        let deletion = JSONObject([(SystemProperty.deleted.rawValue, .bool(true))])
        switch conflict.kind {
        case .deletedOnServer:
            return final == nil ? userValues(conflict.local) : deletion
        case .deletedLocally:
            return final == nil ? userValues(conflict.server ?? JSONObject()) : deletion
        case .edit:
            guard let final else { return JSONObject() }
            let comparison = conflict.comparison
            var lost = JSONObject()
            for field in ThreeWayMerge.userFields(in: [conflict.local, conflict.server ?? JSONObject()]) {
                let kept = ThreeWayMerge.value(field, in: final)
                let mine = ThreeWayMerge.value(field, in: conflict.local)
                let theirs = ThreeWayMerge.value(field, in: conflict.server ?? JSONObject())
                if comparison.changedLocally.contains(field), mine != kept {
                    lost[field] = mine
                } else if comparison.changedOnServer.contains(field), theirs != kept {
                    lost[field] = theirs
                }
            }
            return lost
        }
    }

    /// Which conflict a failure is, for an operation of this type; nil when it is none.
    static func kind(of error: SyncError, type: TableOperationType) -> SyncConflict.Kind? {
        switch type {
        case .update where error.statusCode == 404 && error.code != .spaceNotFound:
            return .deletedOnServer
        case .update, .insert:
            guard error.isConflict else { return nil }
            return isDeleted(error.serverItem) ? .deletedOnServer : .edit
        case .delete:
            return error.isConflict ? .deletedLocally : nil
        }
    }

    static func isDeleted(_ item: JSONObject?) -> Bool { item?[SystemProperty.deleted] == .bool(true) }

    static func userValues(_ item: JSONObject) -> JSONObject {
        JSONObject(item.filter { !SharedSpace.isBookkeeping($0.key) }.map { ($0.key, $0.value) })
    }

    static func union(_ a: [String], _ b: [String]) -> [String] {
        a + b.filter { field in !a.contains { $0.lowercased() == field.lowercased() } }
    }

    /// The recorded error of a conflict nobody settled, naming the item and the fields.
    static func unsettledError(_ conflict: SyncConflict, _ error: SyncError) -> SyncError {
        let fields = conflict.clashingFields.joined(separator: ", ")
        let what: String
        switch conflict.kind {
        case .edit: what = "\(fields.isEmpty ? "it" : fields) changed here and on the server"
        case .deletedOnServer: what = "it was deleted on the server and changed here"
        case .deletedLocally: what = "it was deleted here and changed on the server"
        }
        return SyncError(.preconditionFailed, "Conflict on item \(conflict.itemId): \(what)", statusCode: error.statusCode,
                         serverItem: conflict.server ?? error.serverItem)
    }
}
