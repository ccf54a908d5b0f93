import Foundation
import OfflineSync
import Testing
@testable import TodoKit

/// The service and its effect runner on a real local store (and a real server for sync).
@MainActor
@Suite struct TodoServiceTests {
    @Test func completingAnItemKeepsANewerEditOfItsText() throws {
        let service = try makeService()
        var item = try service.add("old text")
        item.text = "new text"
        _ = try service.save(item)
        _ = try service.setComplete(id: item.id, to: true)
        let stored = try #require(try service.item(id: item.id))
        #expect(stored.text == "new text")
        #expect(stored.complete)
    }

    @Test func completingAMissingItemIsAnError() throws {
        let service = try makeService()
        #expect(throws: SyncError.self) { try service.setComplete(id: "nope", to: true) }
    }

    @Test func theListIsReadInPagesSortedByText() throws {
        let service = try makeService()
        for text in ["pear", "apple", "fig", "kiwi"] { _ = try service.add(text) }
        let page = try service.window(ListWindowRequest(offset: 1, limit: 2))
        #expect(page.items.map(\.text) == ["fig", "kiwi"])
        #expect(try service.count(filterText: "I", showCompleted: false) == 2)
    }

    @Test func theListSortsMixedCaseAndAccentsAsPeopleRead() throws {
        let service = try makeService()
        for text in ["Zebra", "apple pie", "_under", "banana", "ärger", "Apple"] { _ = try service.add(text) }
        let texts = try service.window(ListWindowRequest(offset: 0, limit: 10)).items.map(\.text)
        #expect(texts == ["_under", "Apple", "apple pie", "ärger", "banana", "Zebra"])
    }

    @Test func aSyncPushesEveryWriteAskedForBeforeIt() async throws {
        let service = try makeService(server: try await TodoTestServer.shared.get().baseURL)
        let runner = EffectRunner(service: service, inbox: MainQueueInbox())
        var synced: SyncOutcome?
        runner.run((0..<100).map { .add("item \($0)") } + [.sync]) { message in
            if case .synced(let outcome) = message { synced = outcome }
        }
        try await eventually("sync done", timeout: 60) { synced != nil }  // 100 sequential POSTs on a loaded CI machine
        guard case .succeeded = synced else { Issue.record("sync failed: \(String(describing: synced))"); return }
        #expect(service.status().pending == 0)
    }

    @Test func aWriteIsAnsweredWithTheQueuesNewState() async throws {
        let store = AppStore(service: try makeService())
        store.start()
        store.send(.key(.character("a")))
        for c in "buy milk" { store.send(.key(.character(c))) }
        store.send(.key(.enter))
        try await eventually("row and status") { store.state.list.visibleRows.first??.text == "buy milk" && store.state.status.pending == 1 }
        let id = try #require(store.state.list.selectedItem?.id)
        #expect(store.state.status.pendingIds.contains(id.lowercased()))
    }

    @Test func refreshWhileOfflineSaysChangesWillSyncLater() async throws {
        let service = try makeService(server: URL(string: "http://127.0.0.1:1")!)
        _ = try service.add("offline edit")
        let store = AppStore(service: service)
        store.start()
        store.send(.syncRequested)
        #expect(store.state.status.syncing)
        try await eventually("sync finished", timeout: 30) { !store.state.status.syncing }
        #expect(store.state.status.message == "Offline — 1 change will sync later")
        #expect(store.state.status.connectivity == .offline)
    }
}
