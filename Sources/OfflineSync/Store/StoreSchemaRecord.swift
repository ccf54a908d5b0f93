import GRDB
import GRDBSQLite

/// What the last `StoreMigrator.migrate` made of a store, so that an open with the same tables
/// skips it (most of an open's work on a store that needs nothing): the declared tables as text,
/// the store's whole schema as SQLite keeps it, and the tables whose text-search index works.
/// Any change to the schema since, by this code or another (a bulk load dropping triggers, an
/// older version, a hand-made index), changes that text, and the next open migrates. (SQLite's
/// schema version cannot tell: GRDB makes and drops a table whenever it opens a pool whose
/// journal file is gone, as after every clean close.)
enum StoreSchemaRecord {
    /// Bumped whenever what `StoreMigrator.migrate` makes of the same tables changes, so stores
    /// recorded by the code before are migrated again (`StoreSchemaRecordTests` holds a digest
    /// of what it makes and fails until both are updated).
    static let revision = 1

    /// The declared schema as text: every part of the tables that `StoreMigrator.migrate` reads,
    /// and the SQLite it ran on (a newer one may have the text-search tokenizers an older lacked).
    static func fingerprint(_ tables: [SyncTableDefinition]) -> String {
        var lines = ["revision \(revision)", "sqlite " + String(cString: sqlite3_libversion())]
        for table in tables {
            lines.append("table \(table.name)")
            lines += table.allColumns.map { "column \($0.name) \(StoreMigrator.sqlType($0.type))" }
            lines += table.sortRules.keys.sorted().compactMap { table.sortColumn(for: $0).map { "sort \($0.name) \($0.expression)" } }
            lines += table.indexes.map { "index " + $0.joined(separator: ",") }
            lines += table.orderIndexes.map { "order " + $0.joined(separator: ",") }
            lines.append("human " + table.humanSorted.map { $0.lowercased() }.sorted().joined(separator: ","))
            lines.append("search " + table.searchable.joined(separator: ","))
            lines.append("words " + table.wordSearchable.joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    /// Migration v9 of `SystemTables`: the record's table, one row at most.
    static func createTable(_ db: Database) throws {
        try db.execute(sql: #"""
            CREATE TABLE IF NOT EXISTS "MS_StoreSchema" ("fingerprint" TEXT NOT NULL, "schema" TEXT NOT NULL, "searchIndexed" TEXT NOT NULL)
            """#)
    }

    /// The tables with a working text-search index, as last recorded, when `fingerprint` and the
    /// store's schema are still those recorded; nil when the store must be migrated.
    static func unchanged(_ db: Database, fingerprint: String) throws -> Set<String>? {
        guard let row = try Row.fetchOne(db, sql: #"SELECT "fingerprint", "schema", "searchIndexed" FROM "MS_StoreSchema""#),
              row[0] as String == fingerprint, row[1] as String == (try schema(db)) else { return nil }
        return Set((row[2] as String).split(separator: "\n").map(String.init))
    }

    /// Records a migration's outcome with the schema as it is now.
    static func record(_ db: Database, fingerprint: String, searchIndexed: Set<String>) throws {
        try db.execute(sql: #"DELETE FROM "MS_StoreSchema""#)
        try db.execute(sql: #"INSERT INTO "MS_StoreSchema" ("fingerprint", "schema", "searchIndexed") VALUES (?, ?, ?)"#,
                       arguments: [fingerprint, try schema(db), searchIndexed.sorted().joined(separator: "\n")])
    }

    /// Every table, index, trigger and view of the store with its SQL, but SQLite's own (the row
    /// statistics' table, which an open may make).
    static func schema(_ db: Database) throws -> String {
        try String.fetchAll(db, sql: #"""
            SELECT type || ' ' || name || ' ' || ifnull(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY type, name
            """#).joined(separator: "\n")
    }
}
