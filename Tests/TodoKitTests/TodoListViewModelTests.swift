import Foundation
import Testing
@testable import TodoKit

/// Every key path of the list screen, on a real local store.
@MainActor
@Suite struct TodoListViewModelTests {
    func list(with texts: [String] = [], pageHeight: Int = 10) async throws -> TodoListViewModel {
        let service = try makeService()
        for text in texts { _ = try service.addNow(text) }
        let list = TodoListViewModel(service: service)
        list.pageHeight = pageHeight
        list.start()
        try await eventually("first window") { list.isLoaded && list.total == texts.count }
        return list
    }

    @Test func itemsAreSortedByText() async throws {
        let list = try await list(with: ["pear", "apple", "fig"])
        #expect(list.visibleTexts == ["apple", "fig", "pear"])
    }

    @Test func addPromptTypesAndSavesANewItem() async throws {
        let list = try await list()
        _ = list.handle(.character("a"))
        list.type("buy milk")
        #expect(list.mode == .adding(TextField("buy milk")))
        _ = list.handle(.enter)
        try await eventually("new row") { list.visibleTexts == ["buy milk"] }
        #expect(list.mode == .browsing)
    }

    @Test func escapeCancelsTheAddPrompt() async throws {
        let list = try await list()
        _ = list.handle(.character("a"))
        list.type("never")
        _ = list.handle(.escape)
        try await Task.sleep(for: .milliseconds(50))
        #expect(list.total == 0)
        #expect(list.mode == .browsing)
    }

    @Test func spaceCompletesTheItemAndHidesItFromTheDefaultView() async throws {
        let list = try await list(with: ["only"])
        _ = list.handle(.character(" "))
        try await eventually("item hidden") { list.total == 0 }
        _ = list.handle(.character("c"))
        try await eventually("completed shown") { list.total == 1 }
        #expect(list.visibleRows.first??.complete == true)
    }

    @Test func keysTypedWhileTheListReloadsActOnTheRowsShown() async throws {
        let list = try await list(with: ["a", "b", "c"])
        list.reload()
        _ = list.handle(.character("j"))
        _ = list.handle(.character(" "))
        try await eventually("b completed") { list.visibleTexts == ["a", "c"] }
    }

    @Test func spaceOnARowOlderThanTheStoreKeepsTheNewerEdit() async throws {
        let list = try await list(with: ["old text"])
        var newer = try #require(list.selectedItem)
        newer.text = "new text"
        _ = try list.service.saveNow(newer)
        _ = list.handle(.character(" "))
        try await eventually("item hidden") { list.total == 0 }
        let stored = try #require(try list.service.itemNow(id: newer.id))
        #expect(stored.text == "new text")
        #expect(stored.complete)
    }

    @Test func deleteAsksAndYesDeletes() async throws {
        let list = try await list(with: ["doomed", "kept"])
        _ = list.handle(.character("d"))
        guard case .confirmingDelete(let item) = list.mode else { Issue.record("no confirmation"); return }
        #expect(item.text == "doomed")
        _ = list.handle(.character("y"))
        try await eventually("deleted") { list.visibleTexts == ["kept"] }
    }

    @Test func deleteAnsweredNoKeepsTheItem() async throws {
        let list = try await list(with: ["kept"])
        _ = list.handle(.character("d"))
        _ = list.handle(.character("n"))
        #expect(list.mode == .browsing)
        try await Task.sleep(for: .milliseconds(50))
        #expect(list.visibleTexts == ["kept"])
    }

    @Test func filterNarrowsAsYouTypeAndEscapeClears() async throws {
        let list = try await list(with: ["Apple pie", "banana", "pineapple"])
        _ = list.handle(.character("/"))
        list.type("APP")
        try await eventually("filtered") { list.total == 2 }
        #expect(list.visibleTexts == ["Apple pie", "pineapple"])
        _ = list.handle(.escape)
        try await eventually("cleared") { list.total == 3 }
        #expect(list.filter.text.isEmpty)
    }

    @Test func aFilterMatchingMoreRowsThanTheWindowGetsItsCountWhenTypingPauses() async throws {
        let list = try await list(with: (0..<40).map { "task \($0)" } + ["other"], pageHeight: 2)
        _ = list.handle(.character("/"))
        list.type("task")
        try await eventually("count") { list.total == 40 }
        #expect(list.visibleTexts == ["task 0", "task 1"])
    }

    @Test func movementKeysMoveTheSelectionAndScroll() async throws {
        let list = try await list(with: (0..<30).map { String(format: "item %02d", $0) })
        _ = list.handle(.character("j"))
        _ = list.handle(.down)
        #expect(list.selected == 2)
        _ = list.handle(.character("k"))
        #expect(list.selected == 1)
        _ = list.handle(.pageDown)
        #expect(list.selected == 10)
        #expect(list.scrollTop == 1)
        _ = list.handle(.character("G"))
        #expect(list.selected == 29)
        #expect(list.scrollTop == 20)
        try await eventually("rows loaded") { list.visibleRows.allSatisfy { $0 != nil } }
        #expect(list.selectedItem?.text == "item 29")
        _ = list.handle(.pageUp)
        #expect(list.selected == 20)
        _ = list.handle(.home)
        #expect(list.selected == 0)
        #expect(list.scrollTop == 0)
        _ = list.handle(.end)
        _ = list.handle(.character("g"))
        #expect(list.selected == 0)
    }

    @Test func enterOpensTheSelectedItem() async throws {
        let list = try await list(with: ["open me"])
        #expect(list.handle(.enter) == .openEditor(list.selectedItem!))
    }

    @Test func upOnTheFirstRowRefreshes() async throws {
        let list = try await list(with: ["x"])
        _ = list.handle(.up)
        #expect(list.status.message?.hasPrefix("Local only") == true)
    }

    @Test func helpOpensAndAnyKeyCloses() async throws {
        let list = try await list()
        _ = list.handle(.character("?"))
        #expect(list.mode == .help)
        _ = list.handle(.character("x"))
        #expect(list.mode == .browsing)
    }

    @Test func qQuits() async throws {
        let list = try await list()
        #expect(list.handle(.character("q")) == .quit)
    }

    @Test func newItemsAreMarkedPending() async throws {
        let list = try await list(with: ["new"])
        try await eventually("status") { list.status.pending == 1 }
        #expect(list.status.pendingIds.contains(list.selectedItem!.id.lowercased()))
    }

    @Test func refreshWhileOfflineSaysChangesWillSyncLater() async throws {
        let service = try makeService(server: URL(string: "http://127.0.0.1:1")!)
        _ = try service.addNow("offline edit")
        let list = TodoListViewModel(service: service)
        list.start()
        list.refresh()
        #expect(list.status.syncing)
        try await eventually("sync finished", timeout: 30) { !list.status.syncing }
        #expect(list.status.message == "Offline — 1 change will sync later")
        #expect(list.status.connectivity == .offline)
    }
}
