import Foundation
import TableProtocol

extension SyncContext {
    /// The shared spaces this store holds rows of, in any declared table.
    public func localSpaces() throws -> Set<String> {
        let tables = dataSource.tableNames
        do {
            return try dataSource.read { session in try tables.reduce(into: Set<String>()) { $0.formUnion(try session.spaces(in: $1)) } }
        } catch {
            throw SyncError.wrap(error)
        }
    }

    /// Drops a shared space from this store, after leaving it or being removed from it: its rows,
    /// delta tokens and undo entries go, and every change still queued for it leaves the queue
    /// into the conflict log (`ConflictLogEntry.Resolution.notSent`, with `reason`), so nothing is
    /// lost silently. Answers how many changes were logged. Runs between syncs, like a purge.
    @discardableResult
    public func dropSpace(_ space: String, reason: String) async throws -> Int {
        let tables = dataSource.tableNames
        let ownWrites = self.ownWrites
        return try await work.run { [self] in
            guard operations.nothingInFlight else { throw SyncError.invalid("Dropping a space refused: an operation is being pushed") }
            do {
                return try dataSource.write { session in
                    let logged = try Self.logUnsent(space: space, reason: reason, session: session)
                    for table in tables {
                        let rows = try session.items(SyncQuery(table: table).filter(Field(SharedSpace.column) == .string(space))).items
                        let ids = rows.compactMap { $0[SystemProperty.id]?.stringValue }
                        try session.removeJournalEntries(table: table, itemIds: ids, space: space)
                        try session.deleteItems(ids: ids, in: table, space: space)
                        try session.removeDeltaTokens(table: table, queryIdSuffix: SharedSpace.tokenKey("", space: space))
                        ownWrites.forget(table: table, space: space)
                    }
                    return logged
                }
            } catch {
                throw SyncError.wrap(error)
            }
        }
    }

    /// Brings a dissolved space's rows into the account's own namespace on this device, after
    /// another device of the owner moved them back on the server (ids and versions kept) and
    /// deleted the space: every row of the space, and every queued deletion of one, now belongs
    /// to the account, so a change still queued for one is sent there instead of being dropped.
    /// A row the server no longer has meets the usual deleted-on-the-server conflict at the
    /// push. The space's delta tokens go. Answers how many rows came back. Runs between syncs.
    @discardableResult
    public func returnSpace(_ space: String) async throws -> Int {
        let tables = dataSource.tableNames
        let ownWrites = self.ownWrites
        return try await work.run { [self] in
            guard operations.nothingInFlight else { throw SyncError.invalid("Returning a space refused: an operation is being pushed") }
            do {
                return try dataSource.write { session in
                    var ids: [String: Set<String>] = [:]
                    for table in tables {
                        let rows = try session.items(SyncQuery(table: table).filter(Field(SharedSpace.column) == .string(space))).items
                        ids[table, default: []].formUnion(rows.compactMap { $0[SystemProperty.id]?.stringValue })
                    }
                    var after: Int64 = 0
                    while let queued = try session.operation(after: after) {
                        after = queued.id
                        if queued.space == space { ids[queued.table, default: []].insert(queued.itemId) }
                    }
                    for (table, rows) in ids {
                        try session.moveItems(in: table, ids: rows.sorted(), from: space, to: nil)
                        try session.removeDeltaTokens(table: table, queryIdSuffix: SharedSpace.tokenKey("", space: space))
                        ownWrites.forget(table: table, space: space)
                    }
                    return ids.values.reduce(0) { $0 + $1.count }
                }
            } catch {
                throw SyncError.wrap(error)
            }
        }
    }

    /// Moves this device's copies of rows from one space to another (nil: the account's own
    /// namespace), after `SyncClient.moveRows` moved them on the server: each row, and a queued
    /// deletion's copy, now belongs there, so every change still queued for them is sent there.
    /// Their ids, and the base copies, undo steps and conflict history naming them, go with
    /// them: the rows keep their identity. An id the target holds already stays where it is.
    public func moveRows(in table: String, ids: [String], from source: String?, to space: String?) async throws {
        try await work.run { [self] in
            do {
                try dataSource.write { session in try session.moveItems(in: table, ids: ids, from: source, to: space) }
            } catch {
                throw SyncError.wrap(error)
            }
        }
    }

    /// Follows rows a server-side move gave a new id (`MovedRowIds.renamed`: the target held
    /// theirs): this device's copy under the old id leaves `source`, any change still queued for
    /// it goes to the conflict log (`.notSent`), and one `.movedWithNewId` entry with `reason`
    /// says where it went. The row itself arrives under its new id with the next pull. Answers
    /// how many rows were followed.
    @discardableResult
    public func followRenamedRows(in table: String, renamed: [String: String], from source: String?, reason: String) async throws -> Int {
        guard !renamed.isEmpty else { return 0 }
        return try await work.run { [self] in
            guard operations.nothingInFlight else { throw SyncError.invalid("Following moved rows refused: an operation is being pushed") }
            do {
                return try dataSource.write { session in
                    var after: Int64 = 0
                    while let queued = try session.operation(after: after) {
                        after = queued.id
                        guard queued.table.lowercased() == table.lowercased(), queued.space == source, renamed[queued.itemId] != nil else { continue }
                        let local = queued.type == .delete ? queued.snapshot : try session.item(in: queued.table, id: queued.itemId, space: source)
                        try Self.logNotSent(queued, local: local, reason: reason, session: session)
                    }
                    var followed = 0
                    for (old, new) in renamed.sorted(by: { $0.key < $1.key }) {
                        let local = try session.item(in: table, id: old, space: source)
                        _ = try session.addConflict(ConflictLogEntry(
                            table: table, itemId: old, space: source, kind: .edit, resolution: .movedWithNewId, at: Date(), fields: [],
                            base: try session.baseItem(in: table, id: old, space: source), local: local,
                            server: JSONObject([(SystemProperty.id.rawValue, .string(new))]), lost: JSONObject(), reason: reason))
                        try session.deleteItems(ids: [old], in: table, space: source)
                        try session.setBaseItem(nil, in: table, id: old, space: source)
                        followed += 1
                    }
                    return followed
                }
            } catch {
                throw SyncError.wrap(error)
            }
        }
    }

    /// Takes the queued changes of shared spaces that the server refused as read-only to this
    /// account (`SyncErrorCode.readOnlySpace`: a viewer's writes) out of the queue into the
    /// conflict log (`.notSent`, with `reason`), and puts each item back as the server has it
    /// (its last server version; an insert it never took goes), so the queue moves on and pulls
    /// run again. Any other refusal, and any change outside a shared space, stays queued.
    /// Answers how many changes were logged.
    @discardableResult
    public func dropRefusedChanges(reason: String) async throws -> Int {
        try await work.run { [self] in
            guard operations.nothingInFlight else { throw SyncError.invalid("Dropping refused changes refused: an operation is being pushed") }
            do {
                return try dataSource.write { session in
                    var logged = 0
                    for error in try session.errors() where error.code == SyncErrorCode.readOnlySpace.rawValue {
                        guard let queued = try session.operation(id: error.operationId) else { continue }
                        guard let space = queued.space else { continue }
                        let local = queued.type == .delete ? queued.snapshot : try session.item(in: queued.table, id: queued.itemId, space: space)
                        let base = try session.baseItem(in: queued.table, id: queued.itemId, space: space)
                        try Self.logNotSent(queued, local: local, reason: reason, session: session)
                        if let base {
                            try session.upsert([base], in: queued.table, space: space)
                        } else if queued.type == .insert {
                            try session.deleteItems(ids: [queued.itemId], in: queued.table, space: space)
                        }
                        logged += 1
                    }
                    return logged
                }
            } catch {
                throw SyncError.wrap(error)
            }
        }
    }

    /// The queued changes of items in `space`, moved to the conflict log (one pass over the queue).
    private static func logUnsent(space: String, reason: String, session: any SyncStoreSession) throws -> Int {
        var logged = 0
        var after: Int64 = 0
        while let queued = try session.operation(after: after) {
            after = queued.id
            guard queued.space == space else { continue }
            let local = queued.type == .delete ? queued.snapshot : try session.item(in: queued.table, id: queued.itemId, space: space)
            try logNotSent(queued, local: local, reason: reason, session: session)
            logged += 1
        }
        return logged
    }

    /// One queued change into the conflict log as not sent, out of the queue with its errors and base copy.
    static func logNotSent(_ queued: QueuedOperation, local: JSONObject?, reason: String, session: any SyncStoreSession) throws {
        let lost = queued.type == .delete ? JSONObject([(SystemProperty.deleted.rawValue, .bool(true))])
            : JSONObject((local ?? JSONObject()).filter { !SharedSpace.isBookkeeping($0.key) }.map { ($0.key, $0.value) })
        _ = try session.addConflict(ConflictLogEntry(
            table: queued.table, itemId: queued.itemId, space: queued.space, kind: queued.type == .delete ? .deletedLocally : .deletedOnServer,
            resolution: .notSent, at: Date(), fields: [], base: try session.baseItem(in: queued.table, id: queued.itemId, space: queued.space), local: local,
            server: nil, lost: lost, reason: reason))
        try session.removeErrors(operationId: queued.id)
        try session.removeOperation(id: queued.id)
        try session.setBaseItem(nil, in: queued.table, id: queued.itemId, space: queued.space)
    }
}
