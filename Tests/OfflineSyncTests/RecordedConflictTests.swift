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
        return SyncContext(client: nil, dataSource: try SQLiteSyncStore(path: path, tables: [
            SyncTableDefinition(name: "todos", columns: ["text": .text]), SyncTableDefinition(name: "kept", columns: ["text": .text]),
        ]))
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

    /// The origin `kept/ID` names the row ID of the table "kept".
    private func keptRow(_ origin: String) -> ConflictOriginRow? {
        origin.hasPrefix("kept/") ? ConflictOriginRow(table: "kept", id: String(origin.dropFirst(5)), space: nil) : nil
    }

    @Test func restoringARecordedEntryDeletesTheRowItCameFromAsALocalChange() async throws {
        let context = try context()
        _ = try await context.table("todos").insert(["id": "a", "text": "soy milk"])
        _ = try await context.table("kept").insert(["id": "k1", "text": "oat milk"])
        try context.recordConflicts([(origin: "kept/k1", entry: refused("a", lost: "oat milk"))])
        let id = try #require(try context.conflictLog().first?.id)
        #expect(try context.conflictOrigin(id: id) == "kept/k1")
        try context.restoreConflict(id: id, originRow: keptRow)
        #expect(try context.table("kept").read(id: "k1") == nil)
        // Its insert was never sent, so the deletion cancels it (a pulled row's is queued: LostEditEndToEndTests).
        #expect(try context.pendingOperationsCount(table: "kept") == 0)
        #expect(try context.table("todos").read(id: "a")?["text"] == .string("oat milk"))
    }

    @Test func clearingTheLogDeletesTheRowsItsEntriesCameFrom() async throws {
        let context = try context()
        _ = try await context.table("kept").insert(["id": "k1", "text": "oat milk"])
        _ = try await context.table("kept").insert(["id": "k2", "text": "not an entry's"])
        try context.recordConflicts([(origin: "kept/k1", entry: refused("a", lost: "oat milk"))])
        try context.clearConflictLog(originRow: keptRow)
        #expect(try context.table("kept").read(id: "k1") == nil)
        #expect(try context.table("kept").read(id: "k2") != nil)
        #expect(try context.conflictLog().isEmpty)
    }
}
