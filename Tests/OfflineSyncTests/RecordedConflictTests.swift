import Foundation
import OfflineSync
import ServerTestSupport
import TableProtocol
import Testing

/// Conflicts settled elsewhere (a server face refused another app's write) join the log once per
/// origin, and restore like any other.
@Suite struct RecordedConflictTests {
    private func context() throws -> SyncContext {
        let path = try TempDir.make().appendingPathComponent("r.sqlite").path
        return SyncContext(client: nil, dataSource: try SQLiteSyncStore(path: path, tables: [SyncTableDefinition(name: "todos", columns: ["text": .text])]))
    }

    private func refused(_ id: String, lost: String) -> ConflictLogEntry {
        ConflictLogEntry(table: "todos", itemId: id, kind: .edit, resolution: .refusedOnServer, at: Date(), fields: ["text"], base: nil,
                         local: ["id": .string(id), "text": .string(lost)], server: nil, lost: ["text": .string(lost)], reason: "DAVx5's edit")
    }

    @Test func anEntryIsRecordedOncePerOrigin() throws {
        let context = try context()
        #expect(try context.recordConflicts([(origin: "x/1", entry: refused("a", lost: "oat milk"))]) == 1)
        #expect(try context.recordConflicts([(origin: "x/1", entry: refused("a", lost: "oat milk")), (origin: "x/2", entry: refused("b", lost: "rye"))]) == 1)
        #expect(try context.conflictLog().map(\.itemId) == ["b", "a"])
        #expect(try context.conflictLog().first?.reason == "DAVx5's edit")
    }

    @Test func anOriginRecordedBeforeStaysRecordedWhenTheLogIsCleared() throws {
        let context = try context()
        try context.recordConflicts([(origin: "x/1", entry: refused("a", lost: "oat milk"))])
        try context.clearConflictLog()
        #expect(try context.recordConflicts([(origin: "x/1", entry: refused("a", lost: "oat milk"))]) == 0)
        #expect(try context.conflictLog().isEmpty)
    }

    @Test func restoringARecordedEntryWritesItsLostValuesAsALocalChange() async throws {
        let context = try context()
        _ = try await context.table("todos").insert(["id": "a", "text": "soy milk"])
        try context.recordConflicts([(origin: "x/1", entry: refused("a", lost: "oat milk"))])
        let id = try #require(try context.conflictLog().first?.id)
        try context.restoreConflict(id: id)
        #expect(try context.table("todos").read(id: "a")?["text"] == .string("oat milk"))
        #expect(context.pendingOperationsCount == 1)
    }
}
