import Foundation
import ServerTestSupport
import Testing

/// A database written before accounts existed keeps every row: its tables get the owner column
/// on start, and their rows belong to anonymous access.
@Suite struct LegacyTableTests {
    @Test func aTableFromBeforeAccountsKeepsItsRowsForAnonymousAccess() async throws {
        let db = try TempDir.make().appendingPathComponent("old.sqlite").path
        let sql = """
            CREATE TABLE "TodoItem" ("id" TEXT PRIMARY KEY NOT NULL, "createdAt" TEXT NOT NULL, "updatedAt" TEXT NOT NULL,
              "version" TEXT NOT NULL, "deleted" BOOLEAN NOT NULL, "text" TEXT);
            CREATE INDEX "TodoItem_updatedAt_id" ON "TodoItem" ("updatedAt", "id");
            INSERT INTO "TodoItem" VALUES ('old-1', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 'v1', 0, 'kept');
            """
        let child = try ChildProcess("/usr/bin/sqlite3", [db, sql])
        #expect(child.wait() == 0)
        let server = try await ServerProcess.start(arguments: ["--database", db])
        let client = TableClient(server)
        let item = try await client.get("tables/TodoItem/old-1")
        #expect(item.status == 200)
        #expect(item.object["text"] as? String == "kept")
        #expect(item.header("ETag") == "\"v1\"")
        #expect(try await client.patch("tables/TodoItem/old-1", ["text": "changed"], ifMatch: "\"v1\"").status == 200)
        #expect(try await client.post("tables/TodoItem", ["id": "old-1"]).status == 409)
    }
}
