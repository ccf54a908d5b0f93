import Foundation
import OfflineSync
import Testing
import TodoKit
import TodoKitTestSupport
import TodoModel

/// A parent of many subtasks on screen: its rows are read as items only around the screen, and a
/// top-level parent's fold hides rows already read rather than reading the list again.
@MainActor
@Suite struct SubtaskWindowTests {
    /// "Parent" with subtasks "Step 01" … "Step 40", and "Zebra".
    func longRun() async throws -> TodoStore {
        let service = try makeService()
        _ = try await service.items.add(TodoItem(id: "p", text: "Parent"))
        for step in 1...40 { _ = try await service.items.add(TodoItem(id: "s\(step)", text: String(format: "Step %02d", step), parentId: "p")) }
        _ = try await service.items.add(TodoItem(id: "z", text: "Zebra"))
        return service
    }

    @Test func anUnfoldedParentOfManySubtasksIsReadAsItemsOnlyAroundTheScreen() async throws {
        let service = try await longRun()
        var request = ListWindowRequest(limit: 12)  // a screen of 2 rows
        request.unfolded = ["p"]
        let run = try #require(try service.listing.window(request).subtasks["p"])
        #expect(run.slots.map(\.id) == (1...40).map { "s\($0)" })
        // The screen's top unknown: its first four screens and its last two.
        #expect(run.readRows.map(\.item.text) == ["Step 01", "Step 02", "Step 03", "Step 04", "Step 05", "Step 06", "Step 07", "Step 08",
                                                   "Step 37", "Step 38", "Step 39", "Step 40"])
        request.screenTop = ("p", 20)
        let around = try #require(try service.listing.window(request).subtasks["p"])
        #expect(around.readRows.map(\.item.text) == (16...27).map { String(format: "Step %02d", $0) })
    }

    @Test func aReadSubtaskRowHasItsProgressAndAnUnreadOneNone() async throws {
        let service = try await longRun()
        _ = try await service.items.add(TodoItem(id: "deep", text: "Deep", parentId: "s40"))
        var request = ListWindowRequest(limit: 12)
        request.unfolded = ["p"]
        request.screenTop = ("p", 1)
        let window = try service.listing.window(request)
        #expect(window.progress["p"] == SubtaskProgress(done: 0, total: 40))
        #expect(window.progress["s40"] == nil)
        request.screenTop = ("p", 39)
        #expect(try service.listing.window(request).progress["s40"] == SubtaskProgress(done: 0, total: 1))
    }

    @Test func goingToTheEndOfALongRunReadsTheRowsThatComeOnScreen() async throws {
        let service = try await longRun()
        let app = AppRuntime.started(service)
        app.send(.list(.resized(pageHeight: 3)))
        try await eventually("rows") { app.state.list.visibleRows.first??.progress != nil }
        app.key(.character("z"))
        try await eventually("unfolded") { app.texts == ["Parent", "Step 01", "Step 02"] }
        app.key(.end)
        try await eventually("the list's end") { app.texts == ["Step 39", "Step 40", "Zebra"] }
        app.key(.up)
        try await eventually("on the run's last row") { app.state.list.selectedItem?.text == "Step 40" }
        app.key(.home)
        try await eventually("back at the top") { app.texts == ["Parent", "Step 01", "Step 02"] }
    }

    // MARK: Folding without reading again (the view model alone, windows given by hand)

    /// A list of "Parent" (3 subtasks) and "Zebra" on a screen of 12 rows, its first window answered.
    func listWithAParent() throws -> (TodoListViewModel, ListWindowRequest) {
        var list = TodoListViewModel()
        guard case .listView(.observeWindow(let request))? = list.update(.resized(pageHeight: 12)).first else { throw Failure("no window asked") }
        _ = list.update(.windowLoaded(ListWindow(request: request, items: [parent, zebra], progress: ["p": SubtaskProgress(done: 0, total: 3)])))
        return (list, request)
    }

    let parent = TodoItem(id: "p", text: "Parent")
    let zebra = TodoItem(id: "z", text: "Zebra")
    var steps: [SubtaskRow] { (1...3).map { SubtaskRow(item: TodoItem(id: "s\($0)", text: "Step \($0)", parentId: "p"), depth: 1) } }

    /// Unfolds "Parent" and answers the window it asks for.
    func unfolded(_ list: inout TodoListViewModel) throws {
        guard case .listView(.observeWindow(let request))? = list.update(.action(.toggleFold)).first else { throw Failure("no window asked") }
        #expect(request.unfolded == ["p"])
        _ = list.update(.windowLoaded(ListWindow(request: request, items: [parent, zebra], subtaskRows: ["p": steps],
                                                 progress: ["p": SubtaskProgress(done: 0, total: 3)])))
    }

    @Test func foldingATopLevelParentHidesItsRowsAtOnceWithoutReadingAgain() throws {
        var (list, _) = try listWithAParent()
        try unfolded(&list)
        #expect(list.visibleRows.map { $0?.item.text } == ["Parent", "Step 1", "Step 2", "Step 3", "Zebra"])
        #expect(list.update(.action(.toggleFold)).isEmpty)
        #expect(list.visibleRows.map { $0?.item.text } == ["Parent", "Zebra"])
        #expect(list.visibleRows.first??.isFolded == true)
        #expect(!list.isLoading)
    }

    @Test func unfoldingAParentFoldedThatWayShowsItsRowsAtOnce() throws {
        var (list, _) = try listWithAParent()
        try unfolded(&list)
        _ = list.update(.action(.toggleFold))
        #expect(list.update(.action(.toggleFold)).isEmpty)
        #expect(list.visibleRows.map { $0?.item.text } == ["Parent", "Step 1", "Step 2", "Step 3", "Zebra"])
    }

    @Test func theListReadAgainStopsReadingTheSubtasksOfAFoldedParent() throws {
        var (list, _) = try listWithAParent()
        try unfolded(&list)
        _ = list.update(.action(.toggleFold))
        let reload = list.update(.reload(countDelay: 0)).compactMap { effect -> ListWindowRequest? in
            if case .listView(.observeWindow(let request)) = effect { request } else { nil }
        }
        #expect(reload.map(\.unfolded) == [[]])
        #expect(list.keptFolded.isEmpty)
    }
}

/// A long run under one subtask, its rows far above the screen not read as items: what `h`
/// and `K` need of them is in the run's slots.
@MainActor
@Suite struct UnreadSubtaskRowsTests {
    let parent = TodoItem(id: "P", text: "Parent")
    let a = TodoItem(id: "A", text: "A", parentId: "P"), b = TodoItem(id: "B", text: "B", parentId: "P")
    /// "A" (holding "x1" … "x40") and "B" under "P"; the run's rows from "x30" down read as items.
    var run: SubtaskRun {
        let xs = (1...40).map { TodoItem(id: "x\($0)", text: "x\($0)", parentId: "A") }
        let slots = [SubtaskSlot(id: "A", depth: 1)] + xs.map { SubtaskSlot(id: $0.id, depth: 2) } + [SubtaskSlot(id: "B", depth: 1)]
        return SubtaskRun(slots: slots, items: Dictionary(uniqueKeysWithValues: (xs[29...] + [b]).map { ($0.key, $0) }))
    }

    /// The list sorted `sort`, "P" and then "A" unfolded, each window answered by hand, the
    /// cursor on the list's last row ("B").
    func atTheEnd(sorted sort: ListSort) throws -> TodoListViewModel {
        var list = TodoListViewModel(sorts: ["all": sort])
        var asked = list.update(.resized(pageHeight: 12))
        func answer(_ subtasks: [String: SubtaskRun]) throws {
            let requests = asked.compactMap { effect -> ListWindowRequest? in if case .listView(.observeWindow(let r)) = effect { r } else { nil } }
            guard let request = requests.last else { throw Failure("no window asked") }
            asked = list.update(.windowLoaded(ListWindow(request: request, items: [parent], subtasks: subtasks,
                                                         progress: ["P": SubtaskProgress(done: 0, total: 2), "A": SubtaskProgress(done: 0, total: 40)])))
        }
        try answer([:])
        asked = list.update(.action(.toggleFold))
        try answer(["P": SubtaskRun(rows: [SubtaskRow(item: a, depth: 1), SubtaskRow(item: b, depth: 1)])])
        _ = list.update(.action(.moveDown))
        asked = list.update(.action(.toggleFold))
        try answer(["P": run])
        _ = list.update(.action(.last))
        #expect(list.selectedItem?.id == "B")
        return list
    }

    @Test func hOnASubtaskFoldsItsParentThoughThatRowIsNotRead() throws {
        var list = try atTheEnd(sorted: .standard)
        _ = list.update(.action(.moveUp))  // x40
        let effects = list.update(.action(.fold))
        #expect(list.unfolded == ["P"])
        #expect(list.selectedSubtask == 1)
        #expect(effects.contains { if case .listView(.observeWindow(let request)) = $0 { request.unfolded == ["P"] } else { false } })
    }

    @Test func kMovesASubtaskAboveASiblingWhoseRowIsNotRead() throws {
        var list = try atTheEnd(sorted: .manual)
        let moves = list.update(.action(.moveItemUp)).compactMap { effect -> ItemMove? in if case .items(.reorder(let move)) = effect { move } else { nil } }
        #expect(moves.map(\.item.id) == ["B"])
        #expect(moves.first?.before == ItemKey(space: nil, id: "A"))
        #expect(moves.first?.after == nil)
        #expect(list.selectedSubtask == 1)
    }
}

/// A test's own failure, with what went wrong.
private struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The rows at the top level kept between reads of one window (`TodoStore.topRows`) last only until a write.
@MainActor
@Suite struct KeptTopRowsTests {
    @Test func aWindowReadAgainAfterAWriteShowsTheWrite() async throws {
        let service = try makeService()
        _ = try await service.items.add(TodoItem(id: "a", text: "Apples"))
        var request = ListWindowRequest()
        #expect(try service.listing.window(request).items.map(\.text) == ["Apples"])
        _ = try await service.items.add(TodoItem(id: "b", text: "Bread"))
        request.unfolded = ["a"]  // the same rows at the top
        #expect(try service.listing.window(request).items.map(\.text) == ["Apples", "Bread"])
        request.unfolded = []
        #expect(try service.listing.window(request).items.map(\.text) == ["Apples", "Bread"])
    }
}
