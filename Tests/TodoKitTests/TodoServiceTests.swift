import Foundation
import OfflineSync
import Testing
@testable import TodoKit
import ServerTestSupport

/// The service and its effect runner on a real local store (and a real server for sync).
@MainActor
@Suite struct TodoServiceTests {
    @Test func completingAnItemKeepsANewerEditOfItsText() async throws {
        let service = try makeService()
        var item = try await service.items.add("old text")
        item.text = "new text"
        _ = try await service.items.save(item)
        _ = try await service.items.setComplete(id: item.id, to: true)
        let stored = try #require(try service.items.item(id: item.id))
        #expect(stored.text == "new text")
        #expect(stored.complete)
    }

    @Test func completingAMissingItemIsAnError() async throws {
        let service = try makeService()
        await #expect(throws: SyncError.self) { try await service.items.setComplete(id: "nope", to: true) }
    }

    @Test func theListIsReadInPagesSortedByText() async throws {
        let service = try makeService()
        for text in ["pear", "apple", "fig", "kiwi"] { _ = try await service.items.add(text) }
        let page = try service.listing.window(ListWindowRequest(offset: 1, limit: 2))
        #expect(page.items.map(\.text) == ["fig", "kiwi"])
        #expect(try service.listing.count(filterText: "I", showCompleted: false) == 2)
    }

    @Test func theListSortsMixedCaseAndAccentsAsPeopleRead() async throws {
        let service = try makeService()
        for text in ["Zebra", "apple pie", "_under", "banana", "ärger", "Apple"] { _ = try await service.items.add(text) }
        let texts = try service.listing.window(ListWindowRequest(offset: 0, limit: 10)).items.map(\.text)
        #expect(texts == ["_under", "Apple", "apple pie", "ärger", "banana", "Zebra"])
    }

    @Test func aSyncPushesEveryWriteAskedForBeforeIt() async throws {
        let service = try makeService(server: try await SharedServerProcess.shared.get().baseURL)
        let app = AppRuntime.started(service)
        app.key(.character("a"))
        app.type("one")
        app.key(.enter)
        app.key(.character("r"))
        try await eventually("sync done", timeout: 60) { !app.state.status.syncing && app.state.status.lastSync != nil }
        #expect(app.state.status.message == nil)
        #expect(service.server.status().pending == 0)
    }

    @Test func aWriteIsAnsweredWithTheQueuesNewStateAndTheListSeesIt() async throws {
        let app = AppRuntime.started(try makeService())
        app.send(.list(.resized(pageHeight: 10)))
        app.key(.character("a"))
        app.type("buy milk")
        app.key(.enter)
        try await eventually("row and status", timeout: 30) { app.state.list.visibleRows.first??.item.text == "buy milk" && app.state.status.pending == 1 }
        let id = try #require(app.state.list.selectedItem?.id)
        #expect(app.state.status.pendingItems.contains(ItemKey(space: nil, id: id)))
    }

    @Test func theListFollowsAPullWithoutAReload() async throws {
        let server = try await SharedServerProcess.shared.get().baseURL
        let laptop = try makeService(server: server)
        let phone = try makeService(server: server)
        let app = AppRuntime.started(phone)
        app.send(.list(.resized(pageHeight: 10)))
        try await laptop.items.add("from the laptop")
        try await laptop.server.sync()
        try await phone.server.sync(push: false, pull: true)  // not through the app: its live query sees the commit
        try await eventually("row") { app.state.list.visibleRows.contains { $0?.item.text == "from the laptop" } }
    }

    @Test func refreshWhileOfflineSaysChangesWillSyncLater() async throws {
        let service = try makeService(server: URL(string: "http://127.0.0.1:1")!)
        try await service.items.add("offline edit")
        let app = AppRuntime.started(service)
        app.send(.sync(.syncRequested))
        // A refused connection fails at once: wait for the words, not for the spinner.
        try await eventually("sync finished", timeout: 30) { app.state.status.message == "Offline — 1 change will sync later" }
        #expect(!app.state.status.syncing)
        #expect(app.state.status.connectivity == .offline)
    }
}
