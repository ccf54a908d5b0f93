import Foundation
import ServerTestSupport
@testable import SyncServer
import Testing

/// The server's own tables are changed by named migrations, recorded in the database, so a
/// database made by an older server upgrades in place and processes starting together on one
/// PostgreSQL migrate once.
@Suite struct ServerMigrationTests {
    /// A database as the server before namespaces left it: accounts by name, rows owned by
    /// names (one of them of an account removed since), one clock row per table (far ahead).
    func olderServersDatabase(_ backend: Backend) throws -> DatabaseInspector {
        let database = DatabaseInspector(backend: backend, database: try DatabaseInspector.fresh(backend))
        let hash = try PasswordHash(password: "correct horse").stored
        let (boolean, no) = backend == .sqlite ? ("BOOLEAN", "0") : ("boolean", "FALSE")
        let statements = [
            #"CREATE TABLE "__users" ("name" TEXT PRIMARY KEY NOT NULL, "password" TEXT NOT NULL, "generation" BIGINT NOT NULL, "createdAt" TEXT NOT NULL)"#,
            #"CREATE TABLE "__secrets" ("name" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL)"#,
            #"CREATE TABLE "__sync_clock" ("tbl" TEXT PRIMARY KEY NOT NULL, "last" BIGINT NOT NULL)"#,
            #"INSERT INTO "__users" VALUES ('ann', '\#(hash)', 3, '2026-01-01T00:00:00.000Z')"#,
            #"INSERT INTO "__sync_clock" VALUES ('todoitem', 4102444800000)"#,
            #"CREATE TABLE "todoitem" ("__owner" TEXT NOT NULL DEFAULT '', "id" TEXT NOT NULL, "createdAt" TEXT NOT NULL, "updatedAt" TEXT NOT NULL, "#
                + #""version" TEXT NOT NULL, "deleted" \#(boolean) NOT NULL, "text" TEXT, "secret" TEXT, PRIMARY KEY ("__owner", "id"))"#,
            #"CREATE INDEX "todoitem_updatedAt_id" ON "todoitem" ("__owner", "updatedAt", "id")"#,
            #"INSERT INTO "todoitem" VALUES ('ann', 'a1', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'v1', \#(no), 'ann''s', NULL)"#,
            #"INSERT INTO "todoitem" VALUES ('ghost', 'g1', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'v1', \#(no), 'ghost''s', 'boo')"#,
        ]
        _ = try database.rows(statements.joined(separator: "; "))
        return database
    }

    @Test(arguments: Backend.allCases)
    func anOlderServersAccountKeepsItsRowsAndSignsIn(_ backend: Backend) async throws {
        let database = try olderServersDatabase(backend)
        let server = try await ServerProcess.start(arguments: ["--database", database.database, "--auth", "required"])
        let auth = AuthServer(attachedTo: server, backend: backend, database: database.database)
        let ann = auth.client(token: try await auth.token("ann"))
        let item = try await ann.get("tables/TodoItem/a1")
        #expect(item.status == 200)
        #expect(item.object["text"] as? String == "ann's")
        #expect(item.object.keys.contains("secret") == false, "a column ann never wrote is not hers")
        let next = try await ann.post("tables/TodoItem", ["text": "after the upgrade"])
        #expect(next.object["updatedAt"] as? String == "2100-01-01T00:00:00.001Z", "her clock goes on where the table's was")
    }

    @Test(arguments: Backend.allCases)
    func theUpgradeKeepsWhereEachTablesClockStoodSoAGroupUntouchedSinceIsNoOlderThanItsRows(_ backend: Backend) async throws {
        let database = try olderServersDatabase(backend)
        let server = try await ServerProcess.start(arguments: ["--database", database.database, "--auth", "required"])
        let auth = AuthServer(attachedTo: server, backend: backend, database: database.database)
        let starts = try await auth.sql(#"SELECT "stamp" FROM "__group_clock_start" WHERE "tbl" = 'todoitem'"#)
        #expect(!starts.isEmpty)
        #expect(starts.allSatisfy { $0 == "2100-01-01T00:00:00.000Z" })
    }

    @Test(arguments: Backend.allCases)
    func rowsOfAnAccountRemovedBeforeTheUpgradeStayUnreachable(_ backend: Backend) async throws {
        let database = try olderServersDatabase(backend)
        let server = try await ServerProcess.start(arguments: ["--database", database.database, "--auth", "required"])
        let auth = AuthServer(attachedTo: server, backend: backend, database: database.database)
        try await AuthServer.users(["add", "ghost", "--password-stdin"], database: database.database, input: "correct horse\n")
        let ghost = auth.client(token: try await auth.token("ghost"))
        #expect(try await ghost.get("tables/TodoItem/g1").status == 404)
        #expect(try database.rows(#"SELECT COUNT(*) FROM "todoitem" WHERE "id" = 'g1'"#) == ["1"], "kept, not deleted")
    }

    @Test(arguments: Backend.allCases)
    func everyMigrationIsRecordedOnce(_ backend: Backend) async throws {
        let database = try olderServersDatabase(backend)
        for _ in 0..<2 {
            let server = try await ServerProcess.start(arguments: ["--database", database.database])
            _ = server.stop()
        }
        #expect(try database.rows(#"SELECT "name" FROM "__migrations" ORDER BY "name""#) == ServerMigrations.all.map(\.name))
    }

    @Test func processesStartingTogetherOnOnePostgreSQLMigrateOnce() async throws {
        let database = try DatabaseInspector.fresh(.postgres)
        let servers = try await withThrowingTaskGroup(of: ServerProcess.self) { group in
            for _ in 0..<3 { group.addTask { try await ServerProcess.start(arguments: ["--database", database]) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        defer { servers.forEach { _ = $0.stop() } }
        let inspector = DatabaseInspector(backend: .postgres, database: database)
        #expect(try inspector.rows(#"SELECT "name" FROM "__migrations" ORDER BY "name""#) == ServerMigrations.all.map(\.name))
        for server in servers { #expect(try await TableClient(server).post("tables/together", ["text": "x"]).status == 201) }
    }
}
