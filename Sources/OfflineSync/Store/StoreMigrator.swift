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
            for columns in table.indexes where !columns.isEmpty {
                let name = quote(([table.name] + columns).joined(separator: "_"))
                try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(name) ON \(quote(table.name)) (\(columns.map(quote).joined(separator: ", ")))")
            }
            if try TextSearchIndex.migrate(db, table: table) { searchIndexed.insert(table.name.lowercased()) }
        }
        return searchIndexed
    }

    /// A quoted identifier, as the filter translator quotes them (one SQL dialect for the store).
    static func quote(_ name: String) -> String { SQLiteDialect().quote(name) }

    static func sqlType(_ type: SyncColumnType) -> String { SQLiteDialect().columnDefinition(type.columnType) }
}
