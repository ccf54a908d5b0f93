import Foundation
import OfflineSync
import Testing
import TodoKitTestSupport
@testable import TodoKit
@testable import TodoModel
import ServerTestSupport

/// Undo and redo in the app: the keys, the status bar's words, and the service on a real store.
@MainActor
@Suite struct UndoFlowTests {
    @Test func uAsksToUndoAndShiftUToRedo() {
        var app = ListFixture(["milk"])
        #expect(app.send(.key(.character("u"))) == [.undo(.undo)])
        #expect(app.send(.key(.character("U"))) == [.undo(.redo)])
    }

    @Test func theUndoneNoticeShowsOnTheStatusBarAndTheListReloads() {
        var app = ListFixture(["milk"])
        let effects = app.send(.undo(.undone("Undid delete of “milk”")))
        #expect(app.state.status.message == "Undid delete of “milk”")
        #expect(effects.contains(.sync(.loadStatus)))
    }

    @Test func theHelpListsUndoAndRedo() {
        let keys = KeyTables.helpRows.map(\.keys)
        #expect(keys.contains("u"))
        #expect(keys.contains("U"))
    }

    @Test func undoingAnAddNamesItAndRemovesIt() async throws {
        let service = try makeService()
        _ = try await service.items.add("buy milk")
        #expect(try service.undoing.undo() == "Undid add of “buy milk”")
        #expect(try service.listing.window(ListWindowRequest(offset: 0, limit: 10)).items.isEmpty)
        #expect(service.server.pendingCount == 0)
    }

    @Test func undoingAnImportCountsItsItemsAndThenItsLists() async throws {
        let service = try makeService()
        let entries = try TodoFile.parse(Data("Call plumber +home\nBuy paint +home\nFile taxes +admin\n".utf8))
        #expect(try await service.items.importEntries(entries).added == 3)
        #expect(try service.undoing.undo() == "Undid add of 3 items")
        #expect(try service.undoing.undo() == "Undid add of 2 lists")
    }

    @Test func undoingAnEditOfManyItemsCountsThem() async throws {
        let service = try makeService()
        _ = try await service.items.add("milk")
        _ = try await service.items.add("bread")
        _ = try service.items.setCompleteAll(matching: nil, to: true)
        #expect(try service.undoing.undo() == "Undid edit of 2 items")
    }

    @Test func undoingAStepOfMixedChangesSaysAChange() async throws {
        let service = try makeService()
        let chore = try await service.items.add(TodoItem(text: "water plants", due: DueDate("2026-11-24"), repeatRule: RepeatRule("daily")))
        _ = try await service.items.setComplete(id: chore.id, to: true)  // and adds the next instance, in one step
        #expect(try service.undoing.undo() == "Undid a change of 2 items")
    }

    @Test func undoingAListsAddNamesTheList() async throws {
        let service = try makeService()
        try await service.lists.add(named: "Groceries")
        #expect(try service.undoing.undo() == "Undid add of “Groceries”")
        #expect(try service.lists.all().isEmpty)
    }

    @Test func undoingADeleteBringsTheItemBackAndRedoDeletesItAgain() async throws {
        let service = try makeService()
        let item = try await service.items.add("buy milk")
        try await service.items.delete(item)
        #expect(try service.undoing.undo() == "Undid delete of “buy milk”")
        #expect(try service.items.item(id: item.id)?.text == "buy milk")
        #expect(try service.undoing.redo() == "Redid delete of “buy milk”")
        #expect(try service.items.item(id: item.id) == nil)
    }

    @Test func nothingToUndoIsNil() async throws {
        let service = try makeService()
        #expect(try service.undoing.undo() == nil)
        #expect(try service.undoing.redo() == nil)
    }

    @Test func undoingASyncedEditSaysItGoesAsANewChange() async throws {
        let server = try await SharedServerProcess.shared.get().baseURL
        let service = try makeService(server: server)
        var item = try await service.items.add("milk")
        item.text = "oat milk"
        _ = try await service.items.save(item)
        try await service.server.sync()
        let notice = try #require(try service.undoing.undo())
        #expect(notice.hasPrefix("Undid edit of “milk”"))
        #expect(notice.contains("as a new change"))
        #expect(service.server.pendingCount == 1)
    }
}
