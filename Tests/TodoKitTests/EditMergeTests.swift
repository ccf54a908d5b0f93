import Foundation
import OfflineSync
import Testing
@testable import TodoKit
@testable import TodoModel

/// Saving the editor after the stored item changed underneath it (a live pull while typing).
@Suite struct EditMergeTests {
    /// The service, the item as the editor opened it, and the stored item changed by `elsewhere`.
    func opened(_ text: String = "milk", elsewhere: (inout TodoItem) -> Void) async throws -> (TodoStore, TodoItem) {
        let service = try makeService()
        let original = try await service.items.add(text)
        var moved = original
        elsewhere(&moved)
        _ = try await service.items.save(moved)
        return (service, original)
    }

    @Test func anEditOfAnUnmovedItemSavesAsTyped() async throws {
        let service = try makeService()
        let original = try await service.items.add("milk")
        var edited = original
        edited.text = "oat milk"
        #expect(try await service.items.save(edited, openedAs: original) == .saved)
        #expect(try service.items.item(id: original.id)?.text == "oat milk")
    }

    @Test func changesToDifferentFieldsAreBothKept() async throws {
        let (service, original) = try await opened { $0.complete = true }
        var edited = original
        edited.text = "oat milk"
        #expect(try await service.items.save(edited, openedAs: original) == .merged)
        let stored = try #require(try service.items.item(id: original.id))
        #expect(stored.text == "oat milk")
        #expect(stored.complete)
    }

    @Test func theSameFieldChangedOnBothSidesSavesNothingAndClashes() async throws {
        let (service, original) = try await opened { $0.text = "milk from A" }
        var edited = original
        edited.text = "milk from B"
        guard case .clashed(let clash) = try await service.items.save(edited, openedAs: original) else {
            Issue.record("expected a clash")
            return
        }
        #expect(try service.items.item(id: original.id)?.text == "milk from A")
        #expect(clash.fields == [ConflictPrompt.Field(name: "text", was: "milk", yours: "milk from B", servers: "milk from A")])
        #expect(clash.keepingEdit.text == "milk from B")
    }

    @Test func anItemDeletedWhileEditingIsSavedAsANewItem() async throws {
        let service = try makeService()
        let original = try await service.items.add("milk")
        try await service.items.delete(original)
        var edited = original
        edited.text = "oat milk"
        #expect(try await service.items.save(edited, openedAs: original) == .addedBack)
        let items = try service.listing.window(ListWindowRequest(showCompleted: true, offset: 0, limit: 10)).items
        #expect(items.map(\.text) == ["oat milk"])
        #expect(items[0].id != original.id)
    }

    @Test func theSaveNamesTheStoredVersionNotTheOpenedOne() async throws {
        let service = try makeService()
        var original = try await service.items.add("milk")
        original.version = "opened-version"
        var edited = original
        edited.text = "oat milk"
        _ = try await service.items.save(edited, openedAs: original)
        #expect(try service.items.item(id: original.id)?.version == nil)
    }
}
