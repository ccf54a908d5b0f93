import GRDB
import TableProtocol

/// The undo journal in SQLite.
extension SQLiteStoreSession {
    func addJournalEntry(_ entry: UndoJournalEntry) throws {
        try db.cachedStatement(sql: """
            INSERT INTO "MS_UndoJournal" ("step", "tableName", "itemId", "space", "before", "after") VALUES (?, ?, ?, ?, ?, ?)
            """).execute(arguments: [entry.step, entry.table, entry.itemId, entry.space ?? "", entry.before.map(JSONText.encode), entry.after.map(JSONText.encode)])
    }

    func newestJournalStep() throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(\"step\") FROM \"MS_UndoJournal\"")) ?? 0
    }

    func journalStep(undone: Bool) throws -> [UndoJournalEntry] {
        // Undo takes the newest step still done; redo the step undone last, which is the oldest undone one.
        let pick = undone ? "MIN" : "MAX"
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT * FROM "MS_UndoJournal" WHERE "step" = (SELECT \(pick)("step") FROM "MS_UndoJournal" WHERE "undone" = ?1)
            ORDER BY "id"
            """), arguments: [undone])
        return rows.map { row in
            UndoJournalEntry(id: row["id"], step: row["step"], table: row["tableName"], itemId: row["itemId"],
                             space: (row["space"] as String?).flatMap { $0.isEmpty ? nil : $0 },
                             before: (row["before"] as String?).flatMap(JSONText.decodeObject),
                             after: (row["after"] as String?).flatMap(JSONText.decodeObject))
        }
    }

    func markJournalStep(_ step: Int64, undone: Bool) throws {
        try db.cachedStatement(sql: "UPDATE \"MS_UndoJournal\" SET \"undone\" = ? WHERE \"step\" = ?").execute(arguments: [undone, step])
    }

    func removeUndoneJournalSteps() throws {
        try db.cachedStatement(sql: "DELETE FROM \"MS_UndoJournal\" WHERE \"undone\" = 1").execute()
    }

    func journaledStates(table: String, itemId: String, space: String?) throws -> [JSONObject] {
        try String.fetchAll(db.cachedStatement(sql: #"SELECT "after" FROM "MS_UndoJournal" WHERE "tableName" = ? AND "itemId" = ? AND "space" = ? AND "after" IS NOT NULL ORDER BY "id""#),
                            arguments: [table, itemId, space ?? ""]).compactMap(JSONText.decodeObject)
    }

    func trimJournal(keepingAfter step: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM \"MS_UndoJournal\" WHERE \"step\" <= ?").execute(arguments: [step])
    }

    func removeJournalEntries(table: String) throws {
        try db.execute(sql: "DELETE FROM \"MS_UndoJournal\" WHERE \"tableName\" = ?", arguments: [table])
    }

    func removeJournalEntries(table: String, itemIds: [String], space: String?) throws {
        let statement = try db.cachedStatement(sql: #"DELETE FROM "MS_UndoJournal" WHERE "tableName" = ? AND "itemId" = ? AND "space" = ?"#)
        for id in itemIds { try statement.execute(arguments: [table, id, space ?? ""]) }
    }
}
