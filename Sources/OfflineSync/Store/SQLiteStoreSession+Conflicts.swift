import Foundation
import GRDB
import TableProtocol

/// Base copies and the conflict log in SQLite.
extension SQLiteStoreSession {
    func baseItem(in table: String, id: String, space: String?) throws -> JSONObject? {
        try String.fetchOne(db.cachedStatement(sql: #"SELECT "item" FROM "MS_BaseItems" WHERE "tableName" = ? AND "itemId" = ? AND "space" = ?"#),
                            arguments: [table, id, space ?? ""]).flatMap(JSONText.decodeObject)
    }

    func setBaseItem(_ item: JSONObject?, in table: String, id: String, space: String?) throws {
        if let item {
            try db.cachedStatement(sql: #"INSERT OR REPLACE INTO "MS_BaseItems" ("tableName", "itemId", "space", "item") VALUES (?, ?, ?, ?)"#)
                .execute(arguments: [table, id, space ?? "", JSONText.encode(item)])
        } else {
            try db.cachedStatement(sql: #"DELETE FROM "MS_BaseItems" WHERE "tableName" = ? AND "itemId" = ? AND "space" = ?"#)
                .execute(arguments: [table, id, space ?? ""])
        }
    }

    func addConflict(_ entry: ConflictLogEntry) throws -> ConflictLogEntry {
        try db.execute(sql: """
            INSERT INTO "MS_ConflictLog" ("tableName", "itemId", "space", "kind", "resolution", "at", "fields", "base", "local", "server", "lost", "restoredAt", "reason")
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [
                entry.table, entry.itemId, entry.space ?? "", entry.kind.rawValue, entry.resolution.rawValue, entry.at.timeIntervalSince1970,
                JSONWriter.string(.array(entry.fields.map { .string($0) })), entry.base.map(JSONText.encode),
                entry.local.map(JSONText.encode), entry.server.map(JSONText.encode), JSONText.encode(entry.lost),
                entry.restoredAt?.timeIntervalSince1970, entry.reason,
            ])
        var stored = entry
        stored.id = db.lastInsertedRowID
        try db.execute(sql: "DELETE FROM \"MS_ConflictLog\" WHERE \"id\" <= ?", arguments: [stored.id - Int64(ConflictLogEntry.limit)])
        return stored
    }

    func addConflict(_ entry: ConflictLogEntry, origin: String) throws -> ConflictLogEntry? {
        try db.execute(sql: #"INSERT OR IGNORE INTO "MS_ConflictOrigins" ("origin") VALUES (?)"#, arguments: [origin])
        guard db.changesCount > 0 else { return nil }
        let stored = try addConflict(entry)
        try db.execute(sql: #"UPDATE "MS_ConflictOrigins" SET "entry" = ? WHERE "origin" = ?"#, arguments: [stored.id, origin])
        return stored
    }

    func conflictOrigins() throws -> [String] {
        try String.fetchAll(db, sql: #"SELECT "origin" FROM "MS_ConflictOrigins""#)
    }

    func conflictOrigin(id: Int64) throws -> String? {
        try String.fetchOne(db, sql: #"SELECT "origin" FROM "MS_ConflictOrigins" WHERE "entry" = ?"#, arguments: [id])
    }

    func conflicts(limit: Int) throws -> [ConflictLogEntry] {
        try Row.fetchAll(db, sql: "SELECT * FROM \"MS_ConflictLog\" ORDER BY \"id\" DESC LIMIT ?", arguments: [limit]).map(Self.conflict(from:))
    }

    func conflict(id: Int64) throws -> ConflictLogEntry? {
        try Row.fetchOne(db, sql: "SELECT * FROM \"MS_ConflictLog\" WHERE \"id\" = ?", arguments: [id]).map(Self.conflict(from:))
    }

    func settledConflictCount(after id: Int64) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"MS_ConflictLog\" WHERE \"id\" > ? AND \"resolution\" <> 'cancel'", arguments: [id]) ?? 0
    }

    func markConflictRestored(id: Int64, at: Date) throws {
        try db.execute(sql: "UPDATE \"MS_ConflictLog\" SET \"restoredAt\" = ? WHERE \"id\" = ?", arguments: [at.timeIntervalSince1970, id])
    }

    func removeConflicts() throws {
        try db.execute(sql: "DELETE FROM \"MS_ConflictLog\"")
    }

    private static func conflict(from row: Row) -> ConflictLogEntry {
        let fields = (row["fields"] as String?).flatMap { try? JSONText.decode(Data($0.utf8)) }
        return ConflictLogEntry(
            id: row["id"], table: row["tableName"], itemId: row["itemId"], space: (row["space"] as String?).flatMap { $0.isEmpty ? nil : $0 },
            kind: SyncConflict.Kind(rawValue: row["kind"]) ?? .edit,
            resolution: ConflictLogEntry.Resolution(rawValue: row["resolution"]) ?? .merged,
            at: Date(timeIntervalSince1970: row["at"]),
            fields: fields.flatMap { if case .array(let names) = $0 { names.compactMap(\.stringValue) } else { nil } } ?? [],
            base: (row["base"] as String?).flatMap(JSONText.decodeObject),
            local: (row["local"] as String?).flatMap(JSONText.decodeObject),
            server: (row["server"] as String?).flatMap(JSONText.decodeObject),
            lost: (row["lost"] as String?).flatMap(JSONText.decodeObject) ?? JSONObject(),
            restoredAt: (row["restoredAt"] as Double?).map(Date.init(timeIntervalSince1970:)), reason: row["reason"])
    }
}
