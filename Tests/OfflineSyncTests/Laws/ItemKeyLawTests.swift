import Foundation
@testable import OfflineSync
import PropertyBased
import ServerTestSupport
import TableProtocol
import Testing

/// The store's key law over random histories: three namespaces (the account's own and two
/// spaces) sharing three ids, with random inserts, edits, deletes and moves between them, on one
/// store with no server. A row is named by (space, id), so each namespace's rows are what a
/// model keyed that way holds, whatever the others did with the same ids; the queue names the
/// same keys; and undoing every step leaves the store as it began, rows moved meanwhile too.
@Suite struct ItemKeyLawTests {
    static let steps = Gen.int(in: 0...9_999).array(of: 1...40)
    static let spaces: [String?] = [nil, "s1", "s2"]
    static let ids = ["a", "b", "C"]

    struct Key: Hashable {
        var space: String?
        var id: String
    }

    static let tables = [SyncTableDefinition(name: "items", columns: ["text": .text], searchable: ["text"])]

    /// Plays a history on a fresh store in `folder`; answers the context and the model of what it holds.
    static func play(_ steps: [Int], in folder: URL) async throws -> (SyncContext, [Key: String]) {
        let path = folder.appendingPathComponent("keys.sqlite")
        try LawStorage.emptyStore(tables, at: path)
        let context = SyncContext(client: nil, dataSource: try SQLiteSyncStore(path: path.path, tables: tables))
        var model: [Key: String] = [:]
        for (step, number) in steps.enumerated() {
            let space = spaces[number % 3]
            // Ids compare without letter case: "c" names "C"'s row.
            let id = number / 3 % 2 == 0 ? ids[number / 6 % 3] : ids[number / 6 % 3].lowercased()
            let key = Key(space: space, id: canonical(id))
            let table = context.table("items").inSpace(space)
            let text = "step \(step)"
            switch number / 18 % 4 {
            case 0 where model[key] == nil:
                try await table.insert(["id": .string(id), "text": .string(text)])
                model[key] = text
            case 1 where model[key] != nil:
                try await table.update(["id": .string(id), SharedSpace.column: space.map(JSONValue.string) ?? .null, "text": .string(text)])
                model[key] = text
            case 2 where model[key] != nil:
                try await table.delete(["id": .string(id), SharedSpace.column: space.map(JSONValue.string) ?? .null])
                model[key] = nil
            case 3 where model[key] != nil:
                // A move to the next namespace, unless that one holds the id already.
                let target = spaces[(number % 3 + 1) % 3]
                try await context.moveRows(in: "items", ids: [id], from: space, to: target)
                let moved = Key(space: target, id: key.id)
                if model[moved] == nil { (model[moved], model[key]) = (model[key], nil) }
            default:
                break
            }
        }
        return (context, model)
    }

    static func rows(_ context: SyncContext) throws -> [Key: String] {
        let items = try context.table("items").read(context.table("items").query).items
        return Dictionary(uniqueKeysWithValues: items.map { (Key(space: SharedSpace.of($0), id: canonical($0["id"]!.stringValue!)), $0["text"]!.stringValue!) })
    }

    /// The id as the model names it (ids compare without letter case).
    static func canonical(_ id: String) -> String { ids.first { $0.lowercased() == id.lowercased() }! }

    @Test func eachNamespaceHoldsWhatItsOwnWritesLeftWhateverTheOthersDidWithTheSameIds() async {
        await propertyCheck(count: LawCases.count, input: Self.steps) { steps in
            let folder = try LawStorage.folder()
            defer { LawStorage.remove(folder) }
            let (context, model) = try await Self.play(steps, in: folder)
            #expect(try Self.rows(context) == model)
        }
    }

    @Test func theQueueNamesEveryRowByItsKeyOnceAndNothingElse() async {
        await propertyCheck(count: LawCases.count, input: Self.steps) { steps in
            let folder = try LawStorage.folder()
            defer { LawStorage.remove(folder) }
            let (context, model) = try await Self.play(steps, in: folder)
            // Nothing was ever sent: each row waits as one insert, and a deleted one left nothing.
            let queued = try context.dataSource.read { session in
                var keys: [Key] = []
                var after: Int64 = 0
                while let operation = try session.operation(after: after) {
                    after = operation.id
                    #expect(operation.type == .insert)
                    keys.append(Key(space: operation.space, id: Self.canonical(operation.itemId)))
                }
                return keys
            }
            #expect(queued.count == Set(queued).count)
            #expect(Set(queued) == Set(model.keys))
        }
    }

    @Test func undoingEveryStepLeavesTheStoreEmptyAgainRowsMovedMeanwhileToo() async {
        await propertyCheck(count: LawCases.count, input: Self.steps) { steps in
            let folder = try LawStorage.folder()
            defer { LawStorage.remove(folder) }
            let (context, _) = try await Self.play(steps, in: folder)
            while try context.undo() != nil {}
            #expect(try Self.rows(context).isEmpty)
            #expect(context.pendingOperationsCount == 0)
        }
    }
}
