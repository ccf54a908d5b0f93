import Foundation
@testable import OfflineSync
import ServerTestSupport
import Synchronization
import Testing
@testable import TodoKit
@testable import TodoModel

/// Sharing through `TodoStore` against a real server with two accounts: where items go, and
/// what happens when a role or a membership changes underneath queued changes.
@Suite struct SharingServiceTests {
    struct Household {
        let server: ServerProcess
        let ann: TodoStore
        let bob: TodoStore

        static func make() async throws -> Household {
            let database = try TempDir.make().appendingPathComponent("s.sqlite").path
            let server = try await ServerProcess.start(arguments: ["--database", database, "--auth", "required"])
            var services: [TodoStore] = []
            for name in ["ann", "bob"] {
                let (status, errors) = try await ServerProcess.runToExit(arguments: ["users", "add", name, "--password-stdin", "--database", database],
                                                                         input: "password \(name)\n")
                guard status == 0 else { throw ServerStartError(description: errors) }
                let dir = try TempDir.make()
                let service = try TodoStore(storePath: dir.appendingPathComponent("d.sqlite").path, serverURL: server.baseURL,
                                              tokens: TokenStore(path: dir.appendingPathComponent("tokens.json").path))
                try await service.account.signIn(user: name, password: "password \(name)")
                services.append(service)
            }
            return Household(server: server, ann: services[0], bob: services[1])
        }

        /// ann's "Chores" with `items`, shared with bob in `role`; both synced.
        func chores(_ items: [TodoItem], role: SpaceRole = .editor) async throws -> ListEntry {
            let list = try await ann.lists.add(named: "Chores")
            for var item in items {
                item.listId = list.id
                try await ann.items.add(item)
            }
            let shared = try await ann.sharing.share(listNamed: "Chores", with: "bob", role: role)
            try await bob.server.sync()
            return shared
        }
    }

    @Test func completingARepeatingItemOfASharedListAddsTheNextOneThereForEveryone() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        _ = try await h.chores([TodoItem(id: "w", text: "water plants", due: DueDate("2026-11-24"), repeatRule: RepeatRule("daily"))])
        let watering = try #require(try h.bob.items.allItems().first)
        try await h.bob.items.setComplete(id: watering.id, to: true, now: Date())
        try await h.bob.server.sync()
        try await h.ann.server.sync()
        let open = try h.ann.items.allItems().filter { !$0.complete }
        #expect(open.map(\.text) == ["water plants"])
        #expect(try h.ann.table.read(id: open[0].id)?.space != nil)
    }

    @Test func anEditOfASharedItemStaysInTheSharedList() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        let shared = try await h.chores([TodoItem(text: "sweep")])
        var item = try #require(try h.bob.items.allItems().first)
        let id = item.id
        item.text = "sweep the porch"
        try await h.bob.items.save(item)
        try await h.bob.server.sync()
        try await h.ann.server.sync()
        #expect(try h.ann.items.allItems().map(\.id) == [id])
        #expect(try h.ann.items.allItems().map(\.text) == ["sweep the porch"])
        #expect(try h.ann.table.read(id: id)?.space == shared.space)
    }

    @Test func movingAParentIntoASharedListTakesItsSubtasksAlongStillUnderIt() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        let shared = try await h.chores([TodoItem(text: "sweep")])
        for item in [TodoItem(id: "pack", text: "Pack"), TodoItem(id: "socks", text: "Socks", parentId: "pack"),
                     TodoItem(id: "wool", text: "Wool", parentId: "socks")] {
            try await h.bob.items.add(item)
        }
        var pack = try #require(try h.bob.items.item(id: "pack"))
        pack.listId = shared.list.id
        try await h.bob.items.save(pack)
        try await h.bob.server.sync()
        try await h.ann.server.sync()
        let items = try h.ann.items.allItems()
        let byText = Dictionary(items.map { ($0.text, $0) }, uniquingKeysWith: { first, _ in first })
        let (annsPack, socks, wool) = (try #require(byText["Pack"]), try #require(byText["Socks"]), try #require(byText["Wool"]))
        #expect(socks.parentId == annsPack.id && wool.parentId == socks.id)
        #expect([annsPack, socks, wool].allSatisfy { $0.listId == shared.list.id })
        #expect(try h.bob.items.allItems().filter { $0.space == nil }.isEmpty, "bob's own copies are gone")
    }

    /// bob holds a copy of ann's "Pack" and its subtask under the same ids, then she shares the
    /// list. Either copy may sort first, so both orders are played.
    @Test(arguments: [("a: bob's socks", "b: ann's socks"), ("b: bob's socks", "a: ann's socks")])
    func aSubtaskRowShowsTheCopyInItsOwnListWhenTwoListsHoldItsId(bobs: String, anns: String) async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        try await h.bob.items.add(TodoItem(id: "pack", text: "Pack"))
        try await h.bob.items.add(TodoItem(id: "socks", text: bobs, parentId: "pack"))
        _ = try await h.chores([TodoItem(id: "pack", text: "Pack"), TodoItem(id: "socks", text: anns, parentId: "pack")])
        var request = ListWindowRequest()
        request.unfolded = ["pack"]
        let run = try #require(try h.bob.listing.window(request).subtasks["pack"])
        #expect(run.count >= 1)
        for index in 0..<run.count {
            let row = try #require(run.row(at: index))
            #expect(row.item.space == run.slots[index].space)
            #expect(row.item.text == (row.item.space == nil ? bobs : anns))
        }
    }

    /// bob's own "Pack" and the shared list's "pack" hold one id in other letters.
    @Test func aSubtaskInASharedListNamesItsParentAsThatListHoldsIt() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        try await h.bob.items.add(TodoItem(id: "Pack", text: "bob's Pack"))
        _ = try await h.chores([TodoItem(id: "pack", text: "Pack"), TodoItem(id: "socks", text: "Socks")])
        var socks = try #require(try h.bob.items.allItems().first { $0.id == "socks" && $0.space != nil })
        socks.parentId = "PACK"
        #expect(try await h.bob.items.save(socks).parentId == "pack")
    }

    @Test func aChangeQueuedBeforeBeingMadeAViewerGoesToTheHistoryAndSyncGoesOn() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        let shared = try await h.chores([TodoItem(text: "sweep")])
        var item = try #require(try h.bob.items.allItems().first)
        item.text = "bob's edit"
        try await h.bob.items.save(item)  // still an editor here; not sent yet
        try await h.ann.sharing.share(listNamed: "Chores", with: "bob", role: .viewer)
        try await h.ann.items.add(TodoItem(text: "dust", listId: shared.list.id))
        try await h.ann.server.sync()
        try await h.bob.server.sync()
        #expect(h.bob.server.pendingCount == 0)
        #expect(Set(try h.bob.items.allItems().map(\.text)) == ["sweep", "dust"])
        let record = try #require(try h.bob.conflicts.log().first)
        #expect(record.resolution == .notSent)
        #expect(record.summary.contains("read-only"))
    }

    @Test func aRoleChangedByTheOwnerShowsInTheSharingObservationAtTheNextSyncWithoutAListCommit() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        _ = try await h.chores([TodoItem(text: "sweep")])
        var sharing = h.bob.spaces.observe().makeAsyncIterator()
        #expect(try await sharing.next()?.map(\.role) == [.editor])
        try await h.ann.sharing.share(listNamed: "Chores", with: "bob", role: .viewer)
        try await h.bob.server.sync()  // nothing of the lists changed in bob's store: only the role
        #expect(try await sharing.next()?.map(\.role) == [.viewer])
    }

    @Test func aRoleChangedByTheOwnerShowsWhileLiveWithoutWaitingForTheFeedToReconnect() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        _ = try await h.chores([TodoItem(text: "sweep")])
        let sharing = h.bob.spaces.observe()
        let live = Mutex(false)
        // A reconnect waits 30 s at least: only the feed's own `event: spaces` can show the role in time.
        let made = h.bob.server.makeLiveSync(options: LiveSync.Options(backoff: ReconnectBackoff(initial: 60, maximum: 60)),
                                      onState: { state in if case .live = state { live.withLock { $0 = true } } },
                                      onSync: { _, _ in })
        let sync = try #require(made)
        sync.start()
        defer { sync.stop() }
        let deadline = Date().addingTimeInterval(10)
        while !live.withLock({ $0 }), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try await h.ann.sharing.share(listNamed: "Chores", with: "bob", role: .viewer)
        let shown = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                for try await entries in sharing where entries.map(\.role) == [.viewer] { return true }
                return false
            }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                return false
            }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
        #expect(shown)
    }

    @Test func onlyTheServersReadOnlySpaceCodeMakesA403ARefusalToDrop() {
        func pushFailure(code: SyncErrorCode) -> SyncError {
            let refused = OperationError(id: 1, operationId: 1, table: TodoItem.tableName, itemId: "a", operationType: .update,
                                         statusCode: 403, code: code.rawValue, message: "refused")
            return SyncError(.pushCompletedWithErrors, "refused", operationErrors: [refused])
        }
        #expect(ServerSync.onlyRefusedBySpaces(pushFailure(code: .readOnlySpace)))
        #expect(!ServerSync.onlyRefusedBySpaces(pushFailure(code: .httpError)))  // a proxy's 403: the changes stay queued
    }

    @Test func removingASharedListKeepsItsItemsInYourInboxOnly() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        _ = try await h.chores([TodoItem(text: "sweep")])
        #expect(try await h.bob.lists.remove(named: "Chores", withItems: false) == 1)
        try await h.bob.server.sync()
        try await h.ann.server.sync()
        let bobs = try #require(try h.bob.items.allItems().first)
        #expect(bobs.listId == nil)
        #expect(try h.bob.table.read(id: bobs.id)?.space == nil)
        #expect(try h.ann.items.allItems().isEmpty)
    }
}
