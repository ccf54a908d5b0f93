import FilterSQL
import GRDB
import TableProtocol

/// Creates the app's declared tables and adds declared columns that are missing: schema evolution
/// from `SyncTableDefinition`, not a list of named migrations.
enum StoreMigrator {
    /// Returns the lower-cased names of the tables that have a working text-search index.
    static func migrate(_ db: Database, tables: [SyncTableDefinition]) throws -> Set<String> {
        var searchIndexed: Set<String> = []
        for table in tables {
            let existing = try Set(Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table.name])
                .map { ($0["name"] as String).lowercased() })
            var hidden = try Set(Row.fetchAll(db, sql: "SELECT name FROM pragma_table_xinfo(?)", arguments: [table.name])
                .map { ($0["name"] as String).lowercased() })
            if existing.isEmpty {
                try create(table, db)
            } else if try keyedById(table, db) {
                try rekey(table, existing: existing, db)
                hidden = []  // the sort columns are made again below
            } else {
                for column in table.allColumns where !existing.contains(column.name.lowercased()) {
                    try db.execute(sql: "ALTER TABLE \(quote(table.name)) ADD COLUMN \(quote(column.name)) \(sqlType(column.type))")
                }
            }
            // Sort rules' hidden columns: virtual, so they take no space and follow every write.
            for column in table.sortRules.keys.sorted() {
                guard let sorted = table.sortColumn(for: column), !hidden.contains(sorted.name.lowercased()) else { continue }
                try db.execute(sql: "ALTER TABLE \(quote(table.name)) ADD COLUMN \(quote(sorted.name)) GENERATED ALWAYS AS (\(sorted.expression)) VIRTUAL")
            }
            // The rows of shared spaces alone: `localSpaces()` (every sync) reads it instead of
            // scanning the table, and rows of the account's own namespace (null) cost it nothing.
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(quote(table.name + "_space")) ON \(quote(table.name)) (\(quote(SharedSpace.column))) "
                + "WHERE \(quote(SharedSpace.column)) IS NOT NULL")
            var declared: Set<String> = [(table.name + "_space").lowercased(), keyIndex(table).lowercased()]
            let ordered = table.orderIndexes.map { $0.map { table.sortColumn(for: $0)?.name ?? $0 } }
            for columns in table.indexes + ordered where !columns.isEmpty {
                let plain = ([table.name] + columns).joined(separator: "_")
                guard columns.contains(where: table.isHumanSorted) else {
                    declared.insert(plain.lowercased())
                    try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(quote(plain)) ON \(quote(table.name)) (\(columns.map(quote).joined(separator: ", ")))")
                    continue
                }
                // A column that became human-sorted: its byte-ordered index gives way to a collated one.
                declared.insert((plain + "_human").lowercased())
                let collated = columns.map { table.isHumanSorted($0) ? "\(quote($0)) COLLATE \(HumanOrder.collationName)" : quote($0) }
                try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(quote(plain + "_human")) ON \(quote(table.name)) (\(collated.joined(separator: ", ")))")
            }
            // An index the definition no longer declares goes: every write paid for it.
            let existingIndexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
                                                      arguments: [table.name])
            for name in existingIndexes where !declared.contains(name.lowercased()) && name.lowercased().hasPrefix(table.name.lowercased() + "_") {
                try db.execute(sql: "DROP INDEX \(quote(name))")
            }
            if try TextSearchIndex.migrate(db, table: table) { searchIndexed.insert(table.name.lowercased()) }
        }
        return searchIndexed
    }

    /// The unique index that keys a row by its space and id: ids are unique per namespace on
    /// the server, so two namespaces (two shared lists, or a list and one's own) may hold the
    /// same id, and a device that sees both keeps both. The own namespace (a null space) is ''.
    static func keyIndex(_ table: SyncTableDefinition) -> String { table.name + "__key" }

    /// The key's columns, as the index lists them and an upsert names its conflict target.
    static let keyColumns = "\(quote(SystemProperty.id.rawValue)), ifnull(\(quote(SharedSpace.column)), '')"

    /// A row's key in a WHERE clause, bound as (id, space or '').
    static let keyClause = "\(quote(SystemProperty.id.rawValue)) = ? AND ifnull(\(quote(SharedSpace.column)), '') = ?"

    private static func create(_ table: SyncTableDefinition, _ db: Database, name: String? = nil) throws {
        let columns = table.allColumns.map { column in
            "\(quote(column.name)) \(sqlType(column.type))" + (column.name == SystemProperty.id.rawValue ? " NOT NULL COLLATE NOCASE" : "")
        }
        try db.execute(sql: "CREATE TABLE \(quote(name ?? table.name)) (\(columns.joined(separator: ", ")))")
        if name == nil { try db.execute(sql: "CREATE UNIQUE INDEX \(quote(keyIndex(table))) ON \(quote(table.name)) (\(keyColumns))") }
    }

    /// True for a table made before rows were keyed by (space, id), with the id its primary key.
    private static func keyedById(_ table: SyncTableDefinition, _ db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT pk FROM pragma_table_info(?) WHERE name = ?", arguments: [table.name, SystemProperty.id.rawValue]) ?? 0 > 0
    }

    /// Remakes a table keyed by its id alone as one keyed by (space, id), in the same transaction:
    /// every row keeps its rowid (the search index reads rows by it), and the queue, base copies,
    /// errors, undo journal and conflict log learn each entry's space from the row it names.
    private static func rekey(_ table: SyncTableDefinition, existing: Set<String>, _ db: Database) throws {
        let staging = "MS_Rekey_" + table.name
        try db.execute(sql: "DROP TABLE IF EXISTS \(quote(staging))")
        try create(table, db, name: staging)
        let kept = table.allColumns.map(\.name).filter { existing.contains($0.lowercased()) }.map(quote).joined(separator: ", ")
        try db.execute(sql: "INSERT INTO \(quote(staging)) (rowid, \(kept)) SELECT rowid, \(kept) FROM \(quote(table.name))")
        try db.execute(sql: "DROP TABLE \(quote(table.name))")
        try db.execute(sql: "ALTER TABLE \(quote(staging)) RENAME TO \(quote(table.name))")
        try db.execute(sql: "CREATE UNIQUE INDEX \(quote(keyIndex(table))) ON \(quote(table.name)) (\(keyColumns))")
        let rows = quote(table.name), id = quote(SystemProperty.id.rawValue), space = quote(SharedSpace.column)
        func rowSpace(_ entries: String) -> String { "(SELECT \(space) FROM \(rows) WHERE \(rows).\(id) = \"\(entries)\".\"itemId\")" }
        func json(_ column: String) -> String { "CASE WHEN json_valid(\(column)) THEN json_extract(\(column), '$.__space') END" }
        for statement in [
            #"UPDATE "MS_TableOperations" SET "space" = ifnull(\#(rowSpace("MS_TableOperations")), ifnull(\#(json(#""item""#)), '')) WHERE "tableName" = ?"#,
            #"UPDATE "MS_TableOperationErrors" SET "space" = ifnull((SELECT "space" FROM "MS_TableOperations" o WHERE o."id" = "operationId"), '') WHERE "tableName" = ?"#,
            #"UPDATE "MS_BaseItems" SET "space" = ifnull(\#(rowSpace("MS_BaseItems")), '') WHERE "tableName" = ?"#,
            #"UPDATE "MS_UndoJournal" SET "space" = ifnull(\#(json(#"ifnull("after", "before")"#)), '') WHERE "tableName" = ?"#,
            #"UPDATE "MS_ConflictLog" SET "space" = ifnull(\#(json(#"ifnull("local", "server")"#)), '') WHERE "tableName" = ?"#,
        ] {
            try db.execute(sql: statement, arguments: [table.name])
        }
    }

    /// A quoted identifier, as the filter translator quotes them (one SQL dialect for the store).
    static func quote(_ name: String) -> String { SQLiteDialect().quote(name) }

    static func sqlType(_ type: SyncColumnType) -> String { SQLiteDialect().columnDefinition(type.columnType) }
}
