import Foundation
import OfflineSync
import Testing
import TodoKit
import TodoKitTestSupport
import TodoModel

/// The full-screen list's subtasks, read from a real store: a parent folded with its progress,
/// its subtasks under it when unfolded, one undo step and a count before a cascade.
@MainActor
@Suite struct SubtaskListTests {
    /// "Pack" with subtasks "Tent" (done), "Socks" and "Boots"; "Boots" has "Laces"; and "Zebra".
    func packing() async throws -> TodoStore {
        let service = try makeService()
        for item in [TodoItem(id: "pack", text: "Pack"), TodoItem(id: "tent", text: "Tent", complete: true, parentId: "pack"),
                     TodoItem(id: "socks", text: "Socks", parentId: "pack"), TodoItem(id: "boots", text: "Boots", parentId: "pack"),
                     TodoItem(id: "laces", text: "Laces", parentId: "boots"), TodoItem(id: "zebra", text: "Zebra")] {
            _ = try await service.items.add(item)
        }
        return service
    }

    @Test func aParentStandsFoldedWithTheProgressOfItsOwnSubtasks() async throws {
        let service = try await packing()
        let window = try service.listing.window(ListWindowRequest())
        #expect(window.items.map(\.text) == ["Pack", "Zebra"])
        #expect(window.subtaskRows.isEmpty)
        #expect(window.progress["pack"] == SubtaskProgress(done: 1, total: 3))
        #expect(window.progress["zebra"] == nil)
        #expect(try service.listing.count(filterText: "", showCompleted: false) == 2)
    }

    @Test func anUnfoldedParentShowsItsOpenSubtasksInOrderAndANestedOneOnlyWhenItIsUnfoldedToo() async throws {
        let service = try await packing()
        var request = ListWindowRequest()
        request.unfolded = ["pack"]
        let rows = try service.listing.window(request).subtaskRows["pack"] ?? []
        #expect(rows.map { "\($0.depth) \($0.item.text)" } == ["1 Boots", "1 Socks"])
        request.unfolded = ["pack", "boots"]
        let deeper = try service.listing.window(request)
        #expect(deeper.subtaskRows["pack"]?.map { "\($0.depth) \($0.item.text)" } == ["1 Boots", "2 Laces", "1 Socks"])
        #expect(deeper.progress["boots"] == SubtaskProgress(done: 0, total: 1))
    }

    @Test func aSubtaskWhoseParentTheViewLeavesOutStandsAtTheTop() async throws {
        let service = try await packing()
        _ = try await service.items.setComplete(id: "boots", to: true)  // takes Laces along
        _ = try await service.items.setComplete(id: "laces", to: false)
        let window = try service.listing.window(ListWindowRequest())
        #expect(window.items.map(\.text) == ["Laces", "Pack", "Zebra"])
        #expect(try service.listing.count(filterText: "", showCompleted: false) == 3)
    }

    @Test func aCycleTwoDevicesMadeShowsBothItemsUnderTheSmallestId() async throws {
        let service = try makeService()
        _ = try await service.items.add(TodoItem(id: "b", text: "Bee", parentId: "a"))
        _ = try await service.items.add(TodoItem(id: "a", text: "Ant", parentId: "b"))
        var request = ListWindowRequest()
        request.unfolded = ["a"]
        let window = try service.listing.window(request)
        #expect(window.items.map(\.id) == ["a"])
        #expect(window.subtaskRows["a"]?.map(\.item.id) == ["b"])
    }

    @Test func aParentNamedInOtherLettersLosesNoneOfItsOwnPlace() async throws {
        let service = try makeService()
        _ = try await service.items.add(TodoItem(id: "p", text: "Pack"))
        _ = try await service.items.add(TodoItem(id: "abc", text: "Boots", parentId: "p"))
        _ = try await service.items.add(TodoItem(id: "x", text: "Laces", parentId: "ABC"))
        var request = ListWindowRequest()
        request.unfolded = ["p"]
        let window = try service.listing.window(request)
        // Boots stays under Pack; Laces, whose parent is named in other letters, is not lost.
        #expect(window.subtaskRows["p"]?.map(\.item.text) == ["Boots"])
        #expect(window.items.map(\.text) == ["Laces", "Pack"])
    }

    @Test func anEditNamingTheParentInOtherLettersPutsTheItemUnderIt() async throws {
        let service = try await packing()
        var zebra = try #require(try service.items.item(id: "zebra"))
        zebra.parentId = "PACK"
        #expect(try await service.items.save(zebra).parentId == "pack")
        var request = ListWindowRequest()
        request.unfolded = ["pack"]
        let window = try service.listing.window(request)
        #expect(window.items.map(\.text) == ["Pack"])
        #expect(window.subtaskRows["pack"]?.map(\.item.text) == ["Boots", "Socks", "Zebra"])
    }

    @Test func aBulkEditNamingTheParentInOtherLettersPutsTheItemsUnderIt() async throws {
        let service = try await packing()
        var zebra = try #require(try service.items.item(id: "zebra"))
        zebra.parentId = "Pack"
        #expect(try service.items.saveAll([zebra]) == 1)
        #expect(try service.items.item(id: "zebra")?.parentId == "pack")
    }

    @Test func savingAnItemUnderItsOwnSubtaskIsRefusedAndSaysSo() async throws {
        let service = try await packing()
        var pack = try #require(try service.items.item(id: "pack"))
        pack.parentId = "laces"
        await #expect { try await service.items.save(pack) } throws: { "\($0)".contains("its own ancestor") }
        pack.parentId = "nothing-here"
        await #expect { try await service.items.save(pack) } throws: { "\($0)".contains("No item has the id") }
    }

    @Test func foldKeysShowAndHideSubtasksAndTheCursorWalksThroughThem() async throws {
        let app = AppRuntime.started(try await packing())
        app.send(.list(.resized(pageHeight: 10)))
        try await eventually("rows") { app.texts == ["Pack", "Zebra"] && app.state.list.visibleRows.first??.progress != nil }
        #expect(app.state.list.visibleRows.first??.isFolded == true)
        app.key(.character("z"))
        try await eventually("unfolded") { app.texts == ["Pack", "Boots", "Socks", "Zebra"] }
        app.key(.down)
        try await eventually("on Boots") { app.state.list.selectedItem?.text == "Boots" }
        app.key(.right)
        try await eventually("nested") { app.texts == ["Pack", "Boots", "Laces", "Socks", "Zebra"] }
        app.key(.down)
        app.key(.down)
        app.key(.down)
        try await eventually("on Zebra") { app.state.list.selectedItem?.text == "Zebra" }
        app.key(.up)
        app.key(.left)  // on Socks: to Pack, folded
        try await eventually("on Pack") { app.state.list.selectedItem?.text == "Pack" }
        try await eventually("folded") { app.texts == ["Pack", "Zebra"] }
    }

    @Test func completingAParentAsksWithTheOpenSubtasksCountAndUndoReopensThemAll() async throws {
        let service = try await packing()
        let app = AppRuntime.started(service)
        app.send(.list(.resized(pageHeight: 10)))
        try await eventually("rows") { app.state.list.visibleRows.first??.progress != nil }
        app.key(.character(" "))
        try await eventually("asked") { app.question == "Complete “Pack” and its 3 open subtasks?" }
        app.key(.character("y"))
        try await eventually("done") { (try? service.items.openSubtasks(of: "pack", space: nil).isEmpty) == true && (try? service.items.item(id: "pack"))??.complete == true }
        app.key(.character("u"))
        try await eventually("undone") { (try? service.items.openSubtasks(of: "pack", space: nil).count) == 3 }
        #expect(try service.items.item(id: "pack")?.complete == false)
        #expect(try service.items.item(id: "tent")?.complete == true)
    }

    @Test func deletingAParentNamesHowManySubtasksGoWithIt() async throws {
        let app = AppRuntime.started(try await packing())
        app.send(.list(.resized(pageHeight: 10)))
        try await eventually("rows") { app.state.list.selectedItem?.text == "Pack" }
        app.key(.character("d"))
        try await eventually("asked") { app.question == "Delete “Pack” and its 4 subtasks?" }
    }

    @Test func completingAParentWhoseSubtasksAreAllDoneAsksNothing() async throws {
        let service = try makeService()
        _ = try await service.items.add(TodoItem(id: "p", text: "Parent"))
        _ = try await service.items.add(TodoItem(id: "c", text: "Child", complete: true, parentId: "p"))
        let app = AppRuntime.started(service)
        app.send(.list(.resized(pageHeight: 10)))
        try await eventually("rows") { app.state.list.visibleRows.first??.progress == SubtaskProgress(done: 1, total: 1) }
        app.key(.character(" "))
        try await eventually("done") { (try? service.items.item(id: "p"))??.complete == true }
        #expect(app.question == nil)
    }
}

extension AppRuntime {
    /// Texts of the rows on screen, subtasks included.
    var texts: [String] { state.list.visibleRows.compactMap { $0?.item.text } }

    /// The question of the confirmation on top, if one is.
    var question: String? {
        guard case .itemConfirmation(let confirmation)? = state.layers.last else { return nil }
        return confirmation.question
    }
}
