import Foundation
import OfflineSync
import Testing
import TodoKit
import TodoKitTestSupport
import TodoModel

/// Marks, then act (#58), on a real store: `m` marks and goes down, `M` marks a range, `*`
/// everything the list shows, Esc clears; Space, `d` and `:` then act on every marked item as one
/// undo step.
@MainActor
@Suite struct MarkedListTests {
    /// Items "Item 01" … "Item 15" and a list "Garden".
    func fifteen() async throws -> TodoStore {
        let service = try makeService()
        _ = try await service.lists.add(named: "Garden")
        _ = try service.items.importItems((1...15).map { TodoItem(id: String(format: "i%02d", $0), text: String(format: "Item %02d", $0)) })
        return service
    }

    func started(_ service: TodoStore) async throws -> AppRuntime {
        let app = AppRuntime.started(service)
        app.send(.list(.resized(pageHeight: 20)))
        try await eventually("rows") { app.texts.count == 15 && app.state.today != nil }
        return app
    }

    func inGarden(_ service: TodoStore) throws -> Int {
        let garden = try #require(try service.lists.all().first { $0.name == "Garden" })
        return try service.items.allItems().count { $0.listId == garden.id }
    }

    @Test func mMarksAndGoesDownMMarksARangeAndEscClears() async throws {
        let app = try await started(try await fifteen())
        app.key(.character("m"))
        try await eventually("down") { app.state.list.selectedItem?.text == "Item 02" }
        app.key(.down)
        app.key(.down)
        app.key(.character("M"))  // Item 01 … Item 04
        try await eventually("range") { app.state.list.marks.count == 4 }
        app.key(.character("m"))  // Item 04 unmarked
        try await eventually("unmarked") { app.state.list.marks.count == 3 }
        #expect(!app.state.list.marks.contains(TodoItem(id: "i04", text: "")))
        app.key(.escape)
        try await eventually("cleared") { app.state.list.marks.isEmpty }
    }

    @Test func twelveMarkedMoveToAListInOneStepAndUndoPutsThemBack() async throws {
        let service = try await fifteen()
        let app = try await started(service)
        for _ in 0..<12 { app.key(.character("m")) }
        try await eventually("marked") { app.state.list.marks.count == 12 }
        app.key(.character(":"))
        app.type("+Garden #outside !high")
        app.key(.enter)
        try await eventually("moved") { (try? self.inGarden(service)) == 12 }
        #expect(app.state.list.marks.isEmpty)
        #expect(try service.items.allItems().filter { $0.tags.contains("outside") }.count == 12)
        try await eventually("notice") { app.state.status.message?.hasPrefix("Changed 12 items") == true }
        app.key(.character("u"))
        try await eventually("back") { (try? self.inGarden(service)) == 0 }
        #expect(try service.items.allItems().allSatisfy { $0.tags.isEmpty && $0.priority == nil })
    }

    @Test func aWordThatIsNoChangeIsNamedAndThePromptStays() async throws {
        let service = try await fifteen()
        let app = try await started(service)
        app.key(.character("m"))
        app.key(.character(":"))
        app.type("+Garden soon")
        app.key(.enter)
        app.key(.backspace)  // keys apply in order: once this one shows, Enter has been answered
        // The prompt stays, naming the word (a later status load may replace the notice it also sent).
        try await eventually("named, the prompt open") {
            guard case .markedChangePrompt(let prompt)? = app.state.layers.last else { return false }
            return prompt.field.text == "+Garden soo" && prompt.preview.contains("“soo”")
        }
        #expect(try inGarden(service) == 0)
    }

    @Test func starMarksEverythingTheFilterShowsAndSpaceCompletesThem() async throws {
        let service = try await fifteen()
        let app = try await started(service)
        app.key(.character("/"))
        app.type("Item 1")
        app.key(.enter)
        try await eventually("filtered") { app.texts.count == 6 }  // Item 10 … Item 15
        app.key(.character("*"))
        try await eventually("marked") { app.state.list.marks.count == 6 }
        app.key(.character(" "))
        try await eventually("done") { (try? service.items.allItems().count(where: \.complete)) == 6 }
        #expect(try service.items.allItems().filter(\.complete).allSatisfy { $0.text.hasPrefix("Item 1") })
    }

    @Test func dAsksOnceWithTheCountAndDeletesEveryMark() async throws {
        let service = try await fifteen()
        let app = try await started(service)
        for _ in 0..<3 { app.key(.character("m")) }
        app.key(.character("d"))
        try await eventually("asked") { app.question == "Delete 3 marked items (and their subtasks)?" }
        app.key(.character("y"))
        try await eventually("deleted") { (try? service.items.allItems().count) == 12 }
        app.key(.character("u"))
        try await eventually("back") { (try? service.items.allItems().count) == 15 }
    }
}
