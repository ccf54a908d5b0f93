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
            let hidden = try Set(Row.fetchAll(db, sql: "SELECT name FROM pragma_table_xinfo(?)", arguments: [table.name])
                .map { ($0["name"] as String).lowercased() })
            if existing.isEmpty {
                let columns = table.allColumns.map { column in
                    "\(quote(column.name)) \(sqlType(column.type))" + (column.name == SystemProperty.id.rawValue ? " PRIMARY KEY NOT NULL COLLATE NOCASE" : "")
                }
                try db.execute(sql: "CREATE TABLE \(quote(table.name)) (\(columns.joined(separator: ", ")))")
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
            var declared: Set<String> = [(table.name + "_space").lowercased()]
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

    /// A quoted identifier, as the filter translator quotes them (one SQL dialect for the store).
    static func quote(_ name: String) -> String { SQLiteDialect().quote(name) }

    static func sqlType(_ type: SyncColumnType) -> String { SQLiteDialect().columnDefinition(type.columnType) }
}
