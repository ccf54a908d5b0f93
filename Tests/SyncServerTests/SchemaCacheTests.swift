import FilterSQL
import Foundation
import ServerTestSupport
@testable import SyncServer
import Testing

/// The schema cache between a table's creation and the moment its writer records it: the commit
/// has already told change feeds, so a client may be asking about the table right then.
@Suite struct SchemaCacheTests {
    /// The real SQLite store; `afterMigrate` runs once a migration has committed, before it returns.
    final class PausingDatabase: SQLDatabase, @unchecked Sendable {
        let inner: SQLiteDatabase
        var afterMigrate: @Sendable () async throws -> Void = {}
        init(_ inner: SQLiteDatabase) { self.inner = inner }

        var dialect: any SQLDialect { inner.dialect }
        func read<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T { try await inner.read(body) }
        func readStatement<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T { try await inner.readStatement(body) }
        func write<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T { try await inner.write(body) }
        func migrate<T: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> T) async throws -> T {
            let value = try await inner.migrate(body)
            try await afterMigrate()
            return value
        }
        func close() async { await inner.close() }
        func connectionUse() async -> ConnectionUse { await inner.connectionUse() }
    }

    func registry() async throws -> (SchemaRegistry, PausingDatabase) {
        let sqlite = try SQLiteDatabase(path: try TempDir.make().appendingPathComponent("s.sqlite").path)
        try await ServerMigrations.run(on: sqlite)
        let database = PausingDatabase(sqlite)
        return (SchemaRegistry(database: database, fixedSchema: false, limits: SchemaLimits(), cacheTTL: .infinity), database)
    }

    /// Creates `table` with a text column `text` in the anonymous namespace through the registry.
    func create(_ table: String, in registry: SchemaRegistry) async throws {
        try await registry.write(table, in: "", columns: [("text", ColumnType.text)], start: { _, _ in () }) { _, _, _ in () }
    }

    @Test func aTableIsVisibleAsSoonAsItsCreationCommitsEvenIfItWasSeenAbsentBefore() async throws {
        let (schemas, database) = try await registry()
        #expect(try await schemas.schema(of: "fresh", in: "") == nil, "absent, and cached as such")
        let seen = SeenSchema()
        database.afterMigrate = { seen.value = try await schemas.schema(of: "fresh", in: "") }
        try await create("fresh", in: schemas)
        #expect(seen.value?.column(named: "text") != nil, "a read between the commit and the writer's bookkeeping")
        #expect(try await schemas.schema(of: "fresh", in: "")?.column(named: "text") != nil)
    }

    @Test func aWriteThatFailsAfterItsCommitLeavesTheSchemaToBeReadAgain() async throws {
        let (schemas, database) = try await registry()
        #expect(try await schemas.schema(of: "never", in: "") == nil)
        database.afterMigrate = { throw CancellationError() }
        await #expect(throws: CancellationError.self) { try await create("never", in: schemas) }
        #expect(try await schemas.schema(of: "never", in: "")?.column(named: "text") != nil)
    }

    final class SeenSchema: @unchecked Sendable { var value: TableSchema? }
}
