import FilterSQL
import Foundation
import TableProtocol

/// The server's own tables (accounts, secrets, write clocks) are made and changed by this ordered
/// list of named migrations, recorded in `__migrations`. They run at start inside `migrate`, under
/// the schema lock, so several processes starting together on one PostgreSQL migrate once: the
/// first takes the lock and applies what is missing, the others then find it recorded.
///
/// A database made before this list existed has no `__migrations` table; the first migrations
/// are written to find their work done (`IF NOT EXISTS`, columns checked first), so such a
/// database upgrades in place. Append only: a recorded name is never run again.
enum ServerMigrations {
    struct Migration: Sendable {
        let name: String
        let apply: @Sendable (any SQLSession, any SQLDialect) throws -> Void
    }

    static let all: [Migration] = [
        Migration(name: "001-accounts-secrets-clock", apply: createAccountsSecretsAndClock),
        Migration(name: "002-owner-column", apply: LegacyOwnerColumn.addWhereMissing),
        Migration(name: "003-account-ids", apply: AccountIDMigration.apply),
        Migration(name: "004-namespace-clocks", apply: NamespaceClockMigration.apply),
        Migration(name: "005-namespace-catalog", apply: NamespaceCatalogMigration.apply),
        Migration(name: "006-shared-spaces", apply: SpaceStore.createTables),
        Migration(name: "007-updated-by", apply: WriterColumnMigration.apply),
        Migration(name: "008-app-passwords", apply: AppPasswords.createTable),
        Migration(name: "009-moves", apply: MoveRecords.createTable),
        Migration(name: "010-move-renames", apply: MoveRecords.addNewIds),
        Migration(name: "011-group-clocks", apply: GroupClocks.createTable),
        Migration(name: "012-push-subscriptions", apply: PushSubscriptions.createTable),
    ]

    /// Applies every migration the database has not recorded, in order; answers their names.
    @discardableResult
    static func run(on database: any SQLDatabase, migrations: [Migration] = all) async throws -> [String] {
        let dialect = database.dialect
        return try await database.migrate { session in
            try session.execute(#"CREATE TABLE IF NOT EXISTS "__migrations" ("name" TEXT PRIMARY KEY NOT NULL, "appliedAt" TEXT NOT NULL)"#, [])
            let done = Set(try session.query(#"SELECT "name" FROM "__migrations""#, []).rows.compactMap { $0[0].text })
            var applied: [String] = []
            for migration in migrations where !done.contains(migration.name) {
                try migration.apply(session, dialect)
                try session.execute(
                    #"INSERT INTO "__migrations" ("name", "appliedAt") VALUES (\#(dialect.placeholder(1)), \#(dialect.placeholder(2)))"#,
                    [.text(migration.name), .text(SyncDateFormat.string(from: Date()))])
                applied.append(migration.name)
            }
            return applied
        }
    }

    private static func createAccountsSecretsAndClock(_ session: any SQLSession, _ dialect: any SQLDialect) throws {
        try session.execute(#"CREATE TABLE IF NOT EXISTS "__users" ("name" TEXT PRIMARY KEY NOT NULL, "password" TEXT NOT NULL, "generation" BIGINT NOT NULL, "createdAt" TEXT NOT NULL)"#, [])
        try session.execute(#"CREATE TABLE IF NOT EXISTS "__secrets" ("name" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL)"#, [])
        try session.execute(#"CREATE TABLE IF NOT EXISTS "__sync_clock" ("tbl" TEXT PRIMARY KEY NOT NULL, "last" BIGINT NOT NULL)"#, [])
    }

    /// The client tables of the database (none of the server's `__` tables).
    static func clientTables(_ session: any SQLSession, _ dialect: any SQLDialect) throws -> [String] {
        try session.query(dialect.listTablesSQL, []).rows.compactMap { $0[0].text }
    }

    /// The column names of a table.
    static func columnNames(of table: String, _ session: any SQLSession, _ dialect: any SQLDialect) throws -> [String] {
        try session.query(dialect.listColumnsSQL, [.text(table)]).rows.compactMap { $0[0].text }
    }
}

/// Every table of namespaces gets the column that keeps who wrote a row (`updatedBy`); rows
/// written before it say nobody (null).
enum WriterColumnMigration {
    static func apply(_ session: any SQLSession, _ dialect: any SQLDialect) throws {
        let column = TableSchema.writerColumn
        for table in try session.query(#"SELECT "name" FROM "__physical""#, []).rows.compactMap({ $0[0].text }) {
            guard try !ServerMigrations.columnNames(of: table, session, dialect).contains(column.physical) else { continue }
            try session.execute("ALTER TABLE \(dialect.quote(table)) ADD COLUMN \(dialect.quote(column.physical)) \(dialect.columnDefinition(column.type))", [])
        }
    }
}

/// Tables from before accounts get the owner column; their rows belong to the anonymous owner.
enum LegacyOwnerColumn {
    static func addWhereMissing(_ session: any SQLSession, _ dialect: any SQLDialect) throws {
        for table in try ServerMigrations.clientTables(session, dialect) {
            let names = try ServerMigrations.columnNames(of: table, session, dialect)
            guard !names.contains(TableSchema.ownerColumnName), !names.isEmpty else { continue }
            try rebuild(table, columns: names, dialect: dialect, session: session)
        }
    }

    /// Rebuilds the table with the owner column (a primary key cannot be changed in place on
    /// SQLite): its rows keep every value and belong to the anonymous owner.
    private static func rebuild(_ table: String, columns: [String], dialect: any SQLDialect, session: any SQLSession) throws {
        let legacy = dialect.quote(table + "__before_owner")
        let names = columns.map(dialect.quote).joined(separator: ", ")
        let schema = TableSchema(columns: try session.query(dialect.listColumnsSQL, [.text(table)]).rows.compactMap { row in
            guard let name = row[0].text, let declared = row[1].text, let type = dialect.columnType(declared: declared) else { return nil }
            return TableSchema.Column(name: name, type: type)
        }, physicalTable: table)
        try session.execute("ALTER TABLE \(dialect.quote(table)) RENAME TO \(legacy)", [])
        // The old index moves with the renamed table; drop it first so the new one can take its name.
        try session.execute("DROP INDEX IF EXISTS \(dialect.quote(table + "_updatedAt_id"))", [])
        try SchemaRegistry.create(table, schema: schema, dialect: dialect, session: session)
        try session.execute("INSERT INTO \(dialect.quote(table)) (\(names)) SELECT \(names) FROM \(legacy)", [])
        try session.execute("DROP TABLE \(legacy)", [])
    }
}

/// Every account gets an immutable id, and rows name their owner by it instead of by the name:
/// a name removed and added again is a new account that reaches nothing of the old one.
/// Rows whose owner name has no account any more (removed before this migration) get an owner
/// id no account has, so they are kept but nobody reaches them.
enum AccountIDMigration {
    static func apply(_ session: any SQLSession, _ dialect: any SQLDialect) throws {
        let p = dialect.placeholder
        let columns = try ServerMigrations.columnNames(of: "__users", session, dialect)
        if !columns.contains("id") { try session.execute(#"ALTER TABLE "__users" ADD COLUMN "id" TEXT"#, []) }
        if !columns.contains("nameKey") { try session.execute(#"ALTER TABLE "__users" ADD COLUMN "nameKey" TEXT"#, []) }
        var idByName: [String: String] = [:]
        var takenKeys = Set<String>()
        for row in try session.query(#"SELECT "name" FROM "__users" ORDER BY "createdAt", "name""#, []).rows {
            guard let name = row[0].text else { continue }
            let id = AccountID.make()
            // Two names that differ only in case were allowed before; the later one keeps its
            // exact name for signing in, and no new name may take either spelling.
            let key = takenKeys.insert(name.lowercased()).inserted ? name.lowercased() : "\(name.lowercased())#\(id)"
            try session.execute(#"UPDATE "__users" SET "id" = \#(p(1)), "nameKey" = \#(p(2)) WHERE "name" = \#(p(3))"#,
                                [.text(id), .text(key), .text(name)])
            idByName[name] = id
        }
        try session.execute(#"CREATE UNIQUE INDEX IF NOT EXISTS "__users_id" ON "__users" ("id")"#, [])
        try session.execute(#"CREATE UNIQUE INDEX IF NOT EXISTS "__users_nameKey" ON "__users" ("nameKey")"#, [])
        let owner = TableSchema.ownerColumn
        for table in try ServerMigrations.clientTables(session, dialect) {
            let owners = try session.query("SELECT DISTINCT \(owner) FROM \(dialect.quote(table))", []).rows.compactMap { $0[0].text }
            for name in owners where !name.isEmpty {
                let id = idByName[name] ?? AccountID.unreachable()
                try session.execute("UPDATE \(dialect.quote(table)) SET \(owner) = \(p(1)) WHERE \(owner) = \(p(2))", [.text(id), .text(name)])
            }
        }
    }
}

/// The write clock moves from one row per table to one row per namespace and table, so writes
/// of different accounts never wait on each other's clock row. Each namespace's clock starts
/// where its table's clock was, so `updatedAt` never goes back for a device pulling it.
enum NamespaceClockMigration {
    static func apply(_ session: any SQLSession, _ dialect: any SQLDialect) throws {
        let p = dialect.placeholder
        try session.execute(
            #"CREATE TABLE IF NOT EXISTS "__clocks" ("ns" TEXT NOT NULL, "tbl" TEXT NOT NULL, "last" BIGINT NOT NULL, PRIMARY KEY ("ns", "tbl"))"#, [])
        let tables = Set(try ServerMigrations.clientTables(session, dialect))
        for row in try session.query(#"SELECT "tbl", "last" FROM "__sync_clock""#, []).rows {
            guard let table = row[0].text, let last = row[1].int64, tables.contains(table) else { continue }
            try session.execute(
                #"INSERT INTO "__clocks" ("ns", "tbl", "last") SELECT DISTINCT \#(TableSchema.ownerColumn), CAST(\#(p(1)) AS TEXT), CAST(\#(p(2)) AS BIGINT) FROM \#(dialect.quote(table))"#
                    // WHERE TRUE: SQLite reads ON after a bare FROM as a join's.
                    + #" WHERE TRUE ON CONFLICT ("ns", "tbl") DO NOTHING"#,
                [.text(table), .integer(last)])
        }
        try session.execute(#"DROP TABLE "__sync_clock""#, [])
    }
}

/// Each namespace's tables and properties become data (`NamespaceCatalog`). A table from before
/// namespaces stays where it is, as a physical table: each owner with rows in it gets it as its
/// table of that name, with the properties that owner has a value in (so another account's
/// columns, which it only ever saw as nulls, are no longer part of its items).
enum NamespaceCatalogMigration {
    static func apply(_ session: any SQLSession, _ dialect: any SQLDialect) throws {
        let p = dialect.placeholder
        try session.execute(#"CREATE TABLE "__physical" ("name" TEXT PRIMARY KEY NOT NULL, "slot" BIGINT NOT NULL)"#, [])
        try session.execute(
            #"CREATE TABLE "__tables" ("ns" TEXT NOT NULL, "tbl" TEXT NOT NULL, "physical" TEXT NOT NULL, "createdAt" TEXT NOT NULL, PRIMARY KEY ("ns", "tbl"))"#, [])
        try session.execute(#"CREATE UNIQUE INDEX "__tables_physical" ON "__tables" ("ns", "physical")"#, [])
        try session.execute(
            #"CREATE TABLE "__columns" ("ns" TEXT NOT NULL, "tbl" TEXT NOT NULL, "nameKey" TEXT NOT NULL, "name" TEXT NOT NULL, "type" TEXT NOT NULL, "#
                + #""physical" TEXT NOT NULL, "position" BIGINT NOT NULL, PRIMARY KEY ("ns", "tbl", "nameKey"))"#, [])
        try session.execute(#"CREATE UNIQUE INDEX "__columns_physical" ON "__columns" ("ns", "tbl", "physical")"#, [])
        let now = SyncDateFormat.string(from: Date())
        for table in try ServerMigrations.clientTables(session, dialect) {
            try session.execute(#"INSERT INTO "__physical" ("name", "slot") VALUES (\#(p(1)), 0)"#, [.text(table)])
            let properties = try session.query(dialect.listColumnsSQL, [.text(table)]).rows.compactMap { row -> TableSchema.Column? in
                guard let name = row[0].text, name != TableSchema.ownerColumnName, !SystemProperty.isSystem(name),
                      let declared = row[1].text, let type = dialect.columnType(declared: declared) else { return nil }
                return TableSchema.Column(name: name, type: type)
            }
            let counts = properties.isEmpty ? "" : ", " + properties.map { "COUNT(\(dialect.quote($0.name)))" }.joined(separator: ", ")
            let owners = try session.query(
                "SELECT \(TableSchema.ownerColumn)\(counts) FROM \(dialect.quote(table)) GROUP BY \(TableSchema.ownerColumn)", []).rows
            for row in owners {
                guard let owner = row[0].text else { continue }
                // Clients' names are lower-cased keys (TableName.key); SQLite matched any case.
                try session.execute(#"INSERT INTO "__tables" ("ns", "tbl", "physical", "createdAt") VALUES (\#(p(1)), \#(p(2)), \#(p(3)), \#(p(4)))"#,
                                    [.text(owner), .text(table.lowercased()), .text(table), .text(now)])
                for (index, column) in properties.enumerated() where (row[index + 1].int64 ?? 0) > 0 {
                    try session.execute(
                        #"INSERT INTO "__columns" ("ns", "tbl", "nameKey", "name", "type", "physical", "position") VALUES (\#(p(1)), \#(p(2)), \#(p(3)), \#(p(4)), \#(p(5)), \#(p(4)), \#(p(6)))"#,
                        [.text(owner), .text(table.lowercased()), .text(column.name.caseFolded), .text(column.name), .text(column.type.rawValue),
                         .integer(Int64(TableSchema.systemColumns.count + index))])
                }
            }
        }
    }
}

/// Account ids: random, never reused, never derived from the name.
enum AccountID {
    /// A new account's id.
    static func make() -> String { UUID().uuidString.lowercased() }

    /// An owner id that no account has or will have: rows of an account removed before ids existed.
    static func unreachable() -> String { "removed-" + make() }
}
