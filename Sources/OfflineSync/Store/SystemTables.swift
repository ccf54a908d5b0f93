import GRDB

/// The SDK's `MS_` tables (operation queue, operation errors, per-table settings such as delta
/// tokens), created and changed by GRDB's migrator: each named migration runs once per store.
enum SystemTables {
    /// Settled conflicts (v2).
    static let conflictLog = "MS_ConflictLog"

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        // Stores made before the migrator have these tables but no record of any migration, so
        // the first migration must accept tables that exist already.
        migrator.registerMigration("v1: MS_ system tables") { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS "MS_TableOperations" (
                    "id" INTEGER PRIMARY KEY AUTOINCREMENT,
                    "tableName" TEXT NOT NULL COLLATE NOCASE,
                    "itemId" TEXT NOT NULL COLLATE NOCASE,
                    "type" TEXT NOT NULL,
                    "item" TEXT);
                CREATE INDEX IF NOT EXISTS "MS_TableOperations_item" ON "MS_TableOperations" ("tableName", "itemId");
                CREATE TABLE IF NOT EXISTS "MS_TableOperationErrors" (
                    "id" INTEGER PRIMARY KEY AUTOINCREMENT,
                    "operationId" INTEGER NOT NULL,
                    "tableName" TEXT NOT NULL COLLATE NOCASE,
                    "itemId" TEXT NOT NULL COLLATE NOCASE,
                    "operationType" TEXT NOT NULL,
                    "statusCode" INTEGER,
                    "code" INTEGER NOT NULL,
                    "message" TEXT NOT NULL,
                    "clientItem" TEXT,
                    "serverItem" TEXT,
                    "rawResponse" TEXT);
                CREATE TABLE IF NOT EXISTS "MS_TableConfig" (
                    "tableName" TEXT NOT NULL COLLATE NOCASE,
                    "key" TEXT NOT NULL,
                    "keyType" INTEGER NOT NULL DEFAULT 0,
                    "value" TEXT,
                    PRIMARY KEY ("tableName", "key", "keyType"));
                """)
        }
        // The base copy (the last server version of an item with queued changes) and the
        // conflict log, for three-way merges and for bringing back values that lost.
        migrator.registerMigration("v2: base copies and conflict log") { db in
            try db.execute(sql: """
                CREATE TABLE "MS_BaseItems" (
                    "tableName" TEXT NOT NULL COLLATE NOCASE,
                    "itemId" TEXT NOT NULL COLLATE NOCASE,
                    "item" TEXT NOT NULL,
                    PRIMARY KEY ("tableName", "itemId"));
                CREATE TABLE "MS_ConflictLog" (
                    "id" INTEGER PRIMARY KEY AUTOINCREMENT,
                    "tableName" TEXT NOT NULL COLLATE NOCASE,
                    "itemId" TEXT NOT NULL COLLATE NOCASE,
                    "kind" TEXT NOT NULL,
                    "resolution" TEXT NOT NULL,
                    "at" REAL NOT NULL,
                    "fields" TEXT NOT NULL,
                    "base" TEXT,
                    "local" TEXT,
                    "server" TEXT,
                    "lost" TEXT NOT NULL,
                    "restoredAt" REAL);
                """)
        }
        // The undo journal: each local write's item before and after, grouped in steps, so a
        // change can be taken back (and redone) after a restart.
        migrator.registerMigration("v3: undo journal") { db in
            try db.execute(sql: """
                CREATE TABLE "MS_UndoJournal" (
                    "id" INTEGER PRIMARY KEY AUTOINCREMENT,
                    "step" INTEGER NOT NULL,
                    "tableName" TEXT NOT NULL COLLATE NOCASE,
                    "itemId" TEXT NOT NULL COLLATE NOCASE,
                    "before" TEXT,
                    "after" TEXT,
                    "undone" INTEGER NOT NULL DEFAULT 0);
                CREATE INDEX "MS_UndoJournal_step" ON "MS_UndoJournal" ("step");
                CREATE INDEX "MS_UndoJournal_undone" ON "MS_UndoJournal" ("undone", "step");
                """)
        }
        // Why a change was not sent (a shared space the account left or was removed from).
        migrator.registerMigration("v4: conflict log reasons") { db in
            try db.execute(sql: #"ALTER TABLE "MS_ConflictLog" ADD COLUMN "reason" TEXT"#)
        }
        // Each entry names its item by (space, id): two namespaces may hold one id. The own
        // namespace is ''. `StoreMigrator` fills the column in when it rekeys a table.
        migrator.registerMigration("v5: items keyed by space and id") { db in
            try db.execute(sql: """
                ALTER TABLE "MS_TableOperations" ADD COLUMN "space" TEXT NOT NULL DEFAULT '';
                DROP INDEX "MS_TableOperations_item";
                CREATE INDEX "MS_TableOperations_item" ON "MS_TableOperations" ("tableName", "itemId", "space");
                ALTER TABLE "MS_TableOperationErrors" ADD COLUMN "space" TEXT NOT NULL DEFAULT '';
                ALTER TABLE "MS_UndoJournal" ADD COLUMN "space" TEXT NOT NULL DEFAULT '';
                ALTER TABLE "MS_ConflictLog" ADD COLUMN "space" TEXT NOT NULL DEFAULT '';
                CREATE TABLE "MS_BaseItems_v5" (
                    "tableName" TEXT NOT NULL COLLATE NOCASE,
                    "itemId" TEXT NOT NULL COLLATE NOCASE,
                    "space" TEXT NOT NULL DEFAULT '',
                    "item" TEXT NOT NULL,
                    PRIMARY KEY ("tableName", "itemId", "space"));
                INSERT INTO "MS_BaseItems_v5" ("tableName", "itemId", "item") SELECT "tableName", "itemId", "item" FROM "MS_BaseItems";
                DROP TABLE "MS_BaseItems";
                ALTER TABLE "MS_BaseItems_v5" RENAME TO "MS_BaseItems";
                """)
        }
        // The origins of entries recorded from elsewhere (`SyncContext.recordConflicts`), kept
        // when the log is cleared or trimmed, so that none is recorded twice.
        migrator.registerMigration("v6: conflict origins") { db in
            try db.execute(sql: #"CREATE TABLE IF NOT EXISTS "MS_ConflictOrigins" ("origin" TEXT PRIMARY KEY NOT NULL)"#)
        }
        // An operation a push put on the wire: its answer may have been lost with the server
        // holding it, so it is never dropped as if unsent (`QueuedOperation.sent`).
        migrator.registerMigration("v7: operations sent") { db in
            try db.execute(sql: #"ALTER TABLE "MS_TableOperations" ADD COLUMN "sent" INTEGER NOT NULL DEFAULT 0"#)
        }
        // Which log entry an origin became, so the app can act on the origin when the entry is
        // restored (`SyncContext.conflictOrigin(id:)`); null for origins recorded before.
        migrator.registerMigration("v8: conflict origins' entries") { db in
            try db.execute(sql: #"ALTER TABLE "MS_ConflictOrigins" ADD COLUMN "entry" INTEGER"#)
            try db.execute(sql: #"CREATE INDEX IF NOT EXISTS "MS_ConflictOrigins_entry" ON "MS_ConflictOrigins" ("entry")"#)
        }
        // What the app's tables were last migrated to, so an open with the same ones skips it.
        migrator.registerMigration("v9: store schema record") { db in try StoreSchemaRecord.createTable(db) }
        return migrator
    }
}
