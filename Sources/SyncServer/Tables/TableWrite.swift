import FilterSQL
import Foundation
import TableProtocol

/// One validated write of the protocol (insert, update, delete, undelete) and its transaction
/// body, shared by the single-item routes and the batch endpoint.
///
/// Every refusal (409, 412, 404) is thrown before the write changes a row, so a refused write
/// leaves a transaction it shares with others clean.
struct TableWrite: Sendable {
    enum Kind: Sendable {
        case insert(id: String)
        case update(id: String, check: VersionCheck)
        case delete(id: String, check: VersionCheck)
        case undelete(id: String, check: VersionCheck)

        /// The item id the write is about.
        var id: String {
            switch self {
            case .insert(let id), .update(let id, _), .delete(let id, _), .undelete(let id, _): return id
            }
        }
    }

    let kind: Kind
    let properties: [(name: String, value: JSONScalar)]

    /// `POST /tables/{t}`.
    static func insert(_ body: JSONObject) throws -> TableWrite {
        let item = try ItemBody(body)
        return TableWrite(kind: .insert(id: item.id ?? UUID().uuidString.lowercased()), properties: item.properties)
    }

    /// `PATCH /tables/{t}/{id}`.
    static func update(id: String, _ body: JSONObject, ifMatch: String?) throws -> TableWrite {
        let item = try ItemBody(body)
        if let bodyID = item.id, bodyID != id {
            throw TableError.badRequest("The item's id '\(bodyID)' does not match the id '\(id)' in the URL")
        }
        return TableWrite(kind: .update(id: id, check: VersionCheck(ifMatchHeader: ifMatch, bodyVersion: item.version)), properties: item.properties)
    }

    /// `DELETE /tables/{t}/{id}`.
    static func delete(id: String, ifMatch: String?) -> TableWrite {
        TableWrite(kind: .delete(id: id, check: VersionCheck(ifMatchHeader: ifMatch, bodyVersion: nil)), properties: [])
    }

    /// `POST /tables/{t}/{id}`.
    static func undelete(id: String, ifMatch: String?) -> TableWrite {
        TableWrite(kind: .undelete(id: id, check: VersionCheck(ifMatchHeader: ifMatch, bodyVersion: nil)), properties: [])
    }

    /// The columns the write needs, with the type each value calls for (nil for null).
    var neededColumns: [(name: String, type: ColumnType?)] {
        properties.map { ($0.name, ColumnType(for: $0.value)) }
    }

    /// The status of success: 201 for a new or restored item, else 200.
    var successStatus: Int {
        switch kind {
        case .insert, .undelete: return 201
        case .update, .delete: return 200
        }
    }

    /// True for writes to an existing item, which answer 404 on a table that does not exist.
    var needsExistingTable: Bool {
        if case .insert = kind { return false }
        return true
    }

    /// Runs the write inside a transaction at the table clock's `now`; answers the stored item.
    func apply(_ rows: RowAccess, now: String, session: any SQLSession) throws -> StoredItem {
        switch kind {
        case .insert(let id):
            if let stored = try rows.insert(id: id, properties: properties, timestamp: now, version: Self.newVersion(), session: session) {
                try session.announce(ChangeNotice(table: rows.table, owner: rows.owner, item: stored))
                try rows.tickGroups(before: nil, after: stored, stamp: now, session: session)
                return stored
            }
            throw TableError.conflict(try rows.fetch(id: id, session: session)!)
        case .update(let id, let check):
            // The usual update finds its row live at the expected version: one statement writes
            // and answers it (reading it first was a large share of the server's CPU for a batch of
            // PATCHes; BENCHMARKS.md, "Bulk cycle against Taskwarrior"). Otherwise nothing was
            // written, and the read below says why (404, 412, 409). A write that may move the row
            // to another group reads it first, for the group it leaves.
            if !rows.mayRegroup(self),
               let changed = try rows.updateIfLive(at: check.expectedVersion, id: id, properties: properties, timestamp: now,
                                                   version: Self.newVersion(), session: session) {
                try session.announce(ChangeNotice(table: rows.table, owner: rows.owner, item: changed))
                try rows.tickGroups(before: nil, after: changed, stamp: now, session: session)
                return changed
            }
            return try modify(rows, id: id, check: check, requireLive: true, now: now, session: session) { _ in
                try rows.update(id: id, properties: properties, timestamp: now, version: Self.newVersion(), session: session)
            }
        case .delete(let id, let check):
            return try modify(rows, id: id, check: check, requireLive: true, now: now, session: session) { _ in
                try rows.setDeleted(true, id: id, timestamp: now, version: Self.newVersion(), session: session)
            }
        case .undelete(let id, let check):
            return try modify(rows, id: id, check: check, requireLive: false, now: now, session: session) { existing in
                guard existing.isDeleted else { return existing }
                return try rows.setDeleted(false, id: id, timestamp: now, version: Self.newVersion(), session: session)
            }
        }
    }

    /// Reads the row, checks its version, applies `change` (stamped `now`), and announces a row
    /// that changed.
    private func modify(_ rows: RowAccess, id: String, check: VersionCheck, requireLive: Bool, now: String, session: any SQLSession,
                        _ change: (StoredItem) throws -> StoredItem?) throws -> StoredItem {
        guard let existing = try rows.fetch(id: id, session: session) else { throw TableError.itemNotFound }
        if requireLive && existing.isDeleted {
            // A move's tombstone says where the row went, so the change can follow it there.
            if let target = try MoveRecords.destination(of: rows.owner, rows.table, id: id, version: existing.version,
                                                        dialect: rows.dialect, session: session) {
                throw TableError.movedAway(namespace: target.namespace, id: target.id)
            }
            throw TableError.itemNotFound
        }
        try check.verify(existing)
        guard let changed = try change(existing) else { throw TableError.itemNotFound }
        if changed.version != existing.version {
            try session.announce(ChangeNotice(table: rows.table, owner: rows.owner, item: changed))
            try rows.tickGroups(before: existing, after: changed, stamp: now, session: session)
        }
        return changed
    }

    /// A fresh opaque version: never reused for an id.
    static func newVersion() -> String { RandomVersions.next() }
}
