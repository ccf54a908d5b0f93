import Foundation
import GRDB
import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// Stores written before the system tables moved to GRDB's migrator still open, queue intact.
@Suite struct StoreMigrationTests {
    /// The system tables exactly as stores made before the migrator have them (no migrations table).
    static let storeBeforeMigrator = """
        CREATE TABLE "MS_TableOperations" (
            "id" INTEGER PRIMARY KEY AUTOINCREMENT,
            "tableName" TEXT NOT NULL COLLATE NOCASE,
            "itemId" TEXT NOT NULL COLLATE NOCASE,
            "type" TEXT NOT NULL,
            "item" TEXT);
        CREATE INDEX "MS_TableOperations_item" ON "MS_TableOperations" ("tableName", "itemId");
        CREATE TABLE "MS_TableOperationErrors" (
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
        CREATE TABLE "MS_TableConfig" (
            "tableName" TEXT NOT NULL COLLATE NOCASE,
            "key" TEXT NOT NULL,
            "keyType" INTEGER NOT NULL DEFAULT 0,
            "value" TEXT,
            PRIMARY KEY ("tableName", "key", "keyType"));
        CREATE TABLE "todos" ("id" TEXT PRIMARY KEY NOT NULL COLLATE NOCASE, "version" TEXT, "createdAt" TEXT,
            "updatedAt" TEXT, "deleted" BOOLEAN, "text" TEXT);
        INSERT INTO "todos" ("id", "text") VALUES ('a', 'kept');
        INSERT INTO "MS_TableOperations" ("tableName", "itemId", "type") VALUES ('todos', 'a', 'insert');
        """

    @Test func aStoreMadeBeforeTheMigratorOpensWithItsQueue() async throws {
        let path = try TempDir.make().appendingPathComponent("old.sqlite").path
        try await DatabaseQueue(path: path).write { try $0.execute(sql: Self.storeBeforeMigrator) }

        let store = try SQLiteSyncStore(path: path, tables: [SyncTableDefinition(name: "todos", columns: ["text": .text])])
        let context = SyncContext(client: nil, dataSource: store)
        #expect(context.pendingOperationsCount == 1)
        #expect(try context.table("todos").read(id: "a")?["text"] == "kept")
        let applied = try await DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(applied == ["v1: MS_ system tables", "v2: base copies and conflict log", "v3: undo journal", "v4: conflict log reasons",
                            "v5: items keyed by space and id", "v6: conflict origins", "v7: operations sent", "v8: conflict origins' entries",
                            "v9: store schema record"])

        // Opening again runs no migration twice and keeps everything.
        let reopened = SyncContext(client: nil, dataSource: try SQLiteSyncStore(path: path, tables: [SyncTableDefinition(name: "todos", columns: ["text": .text])]))
        #expect(reopened.pendingOperationsCount == 1)
    }

    @Test func anIndexTheDefinitionNoLongerDeclaresIsDroppedAndTheOthersStay() throws {
        let path = try TempDir.make().appendingPathComponent("idx.sqlite").path
        let columns: [String: SyncColumnType] = ["text": .text, "done": .boolean]
        _ = try SQLiteSyncStore(path: path, tables: [SyncTableDefinition(name: "todos", columns: columns, indexes: [["done"], ["text"]])])
        _ = try SQLiteSyncStore(path: path, tables: [SyncTableDefinition(name: "todos", columns: columns, indexes: [["text"]])])
        let names = try DatabaseQueue(path: path).read {
            try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'todos' AND sql IS NOT NULL ORDER BY name")
        }
        #expect(names == ["todos__key", "todos_space", "todos_text"])
    }
}
