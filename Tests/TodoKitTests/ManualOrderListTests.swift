import Foundation
import OfflineSync
import Testing
import TodoKit
import TodoKitTestSupport
import TodoModel

/// The list sorted by hand (#58): `o` cycles a view's sort and the device remembers it per view;
/// `K` and `J` move the item under the cursor among its siblings, and the cursor goes with it.
@MainActor
@Suite struct ManualOrderListTests {
    /// "Ann", "Bob", "Cat" placed in that order (their due dates say the opposite), and "Pack"
    /// with subtasks "Tent" and "Boots".
    func placed() async throws -> TodoStore {
        let service = try makeService()
        let keys = [OrderKey.key(integer: 1), OrderKey.key(integer: 2), OrderKey.key(integer: 3), OrderKey.key(integer: 4)]
        let today = DueDate("2026-11-24")!
        for item in [TodoItem(id: "a", text: "Ann", due: today.adding(days: 3), order: keys[0]), TodoItem(id: "b", text: "Bob", due: today.adding(days: 2), order: keys[1]),
                     TodoItem(id: "c", text: "Cat", due: today.adding(days: 1), order: keys[2]), TodoItem(id: "p", text: "Pack", order: keys[3]),
                     TodoItem(id: "t", text: "Tent", parentId: "p", order: keys[0]), TodoItem(id: "o", text: "Boots", parentId: "p", order: keys[1])] {
            _ = try await service.items.add(item)
        }
        return service
    }

    func sortedByHand(_ service: TodoStore) async throws -> AppRuntime {
        let app = AppRuntime.started(service)
        app.send(.list(.resized(pageHeight: 10)))
        try await eventually("rows") { app.texts == ["Cat", "Bob", "Ann", "Pack"] }
        app.key(.character("o"))
        try await eventually("sorted by hand") { app.texts == ["Ann", "Bob", "Cat", "Pack"] }
        return app
    }

    @Test func oSortsTheViewByHandAndTheDeviceRemembersItForThatViewOnly() async throws {
        let service = try await placed()
        let app = try await sortedByHand(service)
        #expect(app.state.list.sort == .manual)
        try await eventually("remembered") { service.sorts.load() == ["all": .manual] }
        app.key(.character("o"))
        try await eventually("by priority, remembered") { app.state.list.sort == .priority && service.sorts.load() == ["all": .priority] }
        // Another run of the app starts the view as it was left.
        let again = AppRuntime(state: AppState(server: nil, sorts: service.sorts.load()), environment: .live(service))
        #expect(again.state.list.sort == .priority)
        app.key(.character("]"))  // the Inbox keeps the standard sort
        try await eventually("inbox") { app.state.list.scope == .inbox }
        #expect(app.state.list.sort == .due)
    }

    @Test func kMovesTheItemUpAndJDownAndTheCursorFollows() async throws {
        let service = try await placed()
        let app = try await sortedByHand(service)
        app.key(.down)
        app.key(.down)
        try await eventually("on Cat", timeout: 60) { app.state.list.selectedItem?.text == "Cat" }
        app.key(.character("K"))
        try await eventually("moved up", timeout: 60) { app.texts == ["Ann", "Cat", "Bob", "Pack"] }
        #expect(app.state.list.selectedItem?.text == "Cat")
        app.key(.character("K"))
        try await eventually("at the top", timeout: 60) { app.texts == ["Cat", "Ann", "Bob", "Pack"] }
        app.key(.character("J"))
        app.key(.character("J"))
        app.key(.character("J"))
        try await eventually("past Pack", timeout: 60) { app.texts == ["Ann", "Bob", "Pack", "Cat"] }
        #expect(app.state.list.selectedItem?.text == "Cat")
        // Each move wrote the moved item alone.
        #expect(try service.items.item(id: "a")?.order == OrderKey.key(integer: 1))
    }

    @Test func aSubtaskMovesAmongItsSiblings() async throws {
        let service = try await placed()
        let app = try await sortedByHand(service)
        app.key(.end)
        app.key(.character("z"))
        try await eventually("unfolded") { app.texts == ["Ann", "Bob", "Cat", "Pack", "Tent", "Boots"] }
        app.key(.down)
        app.key(.down)
        try await eventually("on Boots") { app.state.list.selectedItem?.text == "Boots" }
        app.key(.character("K"))
        try await eventually("moved") { app.texts == ["Ann", "Bob", "Cat", "Pack", "Boots", "Tent"] }
        #expect(app.state.list.selectedItem?.text == "Boots")
        app.key(.character("K"))  // the first of its siblings: stays
        try await eventually("still") { app.texts == ["Ann", "Bob", "Cat", "Pack", "Boots", "Tent"] }
    }

    @Test func movingByHandInAViewSortedAnotherWaySaysHowToSortByHand() async throws {
        let service = try await placed()
        let app = AppRuntime.started(service)
        app.send(.list(.resized(pageHeight: 10)))
        try await eventually("rows") { app.texts == ["Cat", "Bob", "Ann", "Pack"] }
        app.key(.character("K"))
        try await eventually("told") { app.state.status.message == TodoListViewModel.sortByHandFirst }
        #expect(app.texts == ["Cat", "Bob", "Ann", "Pack"])
    }
}

/// A move shows at once, and a window the store answered before the move was written does not
/// undo it on screen (the next key would act on the old order); once written, the rows are read again.
@Suite struct ManualOrderUpdateTests {
    @Test func aWindowAnsweredBeforeTheMoveWasWrittenIsNotShown() throws {
        var list = TodoListViewModel(sorts: ["all": .manual])
        let asked = list.update(.resized(pageHeight: 12))
        guard case .listView(.observeWindow(let request))? = asked.first else { Issue.record("no window asked: \(asked)"); return }
        let items = ["Ann", "Bob", "Cat"].enumerated().map { TodoItem(id: "\($0.offset)", text: $0.element, order: OrderKey.key(integer: Int64($0.offset))) }
        _ = list.update(.windowLoaded(ListWindow(request: request, items: items)))
        let moved = list.update(.action(.moveItemDown))
        #expect(list.visibleRows.map { $0?.item.text } == ["Bob", "Ann", "Cat"])
        #expect(moved.contains { if case .items(.reorder) = $0 { true } else { false } })
        _ = list.update(.windowLoaded(ListWindow(request: request, items: items)))  // the store, before the write
        #expect(list.visibleRows.map { $0?.item.text } == ["Bob", "Ann", "Cat"])
        let written = list.update(.moveWritten(error: nil))
        #expect(written.contains { if case .listView(.observeWindow) = $0 { true } else { false } })
    }

    /// The reload after a move is a new reading of the list: a window the replaced live query
    /// sent before the write, still on its way, is not taken for it (under load it arrived after
    /// the write was reported, and the next key moved the wrong item).
    @Test func aWindowOfTheReadingBeforeTheMoveWasWrittenIsNotTakenAfterIt() throws {
        var list = TodoListViewModel(sorts: ["all": .manual])
        guard case .listView(.observeWindow(let before))? = list.update(.resized(pageHeight: 12)).first else { Issue.record("no window asked"); return }
        let items = ["Ann", "Bob", "Cat"].enumerated().map { TodoItem(id: "\($0.offset)", text: $0.element, order: OrderKey.key(integer: Int64($0.offset))) }
        _ = list.update(.windowLoaded(ListWindow(request: before, items: items)))
        _ = list.update(.action(.moveItemDown))
        let reload = list.update(.moveWritten(error: nil)).compactMap { effect -> ListWindowRequest? in
            if case .listView(.observeWindow(let request)) = effect { request } else { nil }
        }.first
        #expect(reload != nil && reload != before)
        _ = list.update(.windowLoaded(ListWindow(request: before, items: items)))  // the replaced query, late
        #expect(list.visibleRows.map { $0?.item.text } == ["Bob", "Ann", "Cat"])
        if let reload {
            _ = list.update(.windowLoaded(ListWindow(request: reload, items: [items[1], items[0], items[2]])))
            #expect(list.visibleRows.map { $0?.item.text } == ["Bob", "Ann", "Cat"])
            #expect(list.rows.inFlight == nil)
        }
    }
}
