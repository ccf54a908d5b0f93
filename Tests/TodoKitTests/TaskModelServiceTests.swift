import Foundation
import OfflineSync
import Testing
@testable import TodoKit
@testable import TodoModel
import ServerTestSupport

/// Lists and repeating items on a real store, and between two devices through a real server.
@Suite struct TaskModelServiceTests {
    let day = DueDate("2026-11-24")!

    @Test func completingARepeatingItemAddsTheNextInstanceAndOneUndoTakesBothBack() async throws {
        let service = try makeService()
        let item = try await service.items.add(TodoItem(text: "water plants", due: day, tags: ["home"], repeatRule: .every(3, .day)))
        try await service.items.setComplete(id: item.id, to: true)
        let next = try #require(try service.items.item(id: "\(item.id)-20261127"))
        #expect(next.due?.text == "2026-11-27" && !next.complete && next.tags == ["home"] && next.series == item.id)
        #expect(try service.items.item(id: item.id)?.completedAt != nil)
        #expect(try service.undoing.undo() != nil)
        #expect(try service.items.item(id: next.id) == nil)
        #expect(try service.items.item(id: item.id)?.complete == false)
    }

    @Test func savingARepeatingItemAsCompleteFollowsTheSameRules() async throws {
        let service = try makeService()
        var item = try await service.items.add(TodoItem(text: "water plants", due: day, repeatRule: .every(1, .week)))
        item.complete = true
        try await service.items.save(item)  // the editor's Complete field, E, todo edit --complete
        #expect(try service.items.item(id: item.id)?.completedAt != nil)
        #expect(try service.items.item(id: "\(item.id)-20261201")?.complete == false)
        item.complete = false
        try await service.items.save(item)
        #expect(try service.items.item(id: item.id)?.completedAt == nil)
    }

    @Test func completingManyAtOnceAddsEachRepeatingItemsNextInstance() async throws {
        let service = try makeService()
        let item = try await service.items.add(TodoItem(text: "standup", due: day, repeatRule: .weekdays))
        try await service.items.add(TodoItem(text: "once"))
        #expect(try service.items.setCompleteAll(matching: nil, to: true) == 2)
        #expect(try service.items.item(id: "\(item.id)-20261125")?.due == DueDate("2026-11-25"))
        #expect(try service.items.allItems().filter { $0.complete }.allSatisfy { $0.completedAt != nil })
    }

    @Test func completingARepeatingItemDueOnTheLastDayEndsItsSeries() async throws {
        let service = try makeService()
        let item = try await service.items.add(TodoItem(text: "last", due: DueDate.last, repeatRule: .every(1, .day)))
        try await service.items.add(TodoItem(text: "other", due: DueDate.last, repeatRule: .weekdays))
        try await service.items.setComplete(id: item.id, to: true)
        #expect(try service.items.item(id: item.id)?.complete == true)
        #expect(try service.items.setCompleteAll(matching: nil, to: true) == 1)
        #expect(try service.items.allItems().count == 2)
    }

    @Test func anImportWithABadListNameAddsNoListAndNoItem() async throws {
        let service = try makeService()
        let entries = [TodoFile.Entry(item: TodoItem(text: "a"), listName: "Alpha"), TodoFile.Entry(item: TodoItem(text: "b"), listName: "Beta"),
                       TodoFile.Entry(item: TodoItem(text: "c"), listName: "Inbox")]
        await #expect(throws: SyncError.self) { try await service.items.importEntries(entries) }
        #expect(try service.lists.all().isEmpty)
        #expect(try service.items.allItems().isEmpty)
    }

    @Test func anImportMakesEachListOnceWhateverItsLetterCaseAndUndoesInOneStepEach() async throws {
        let service = try makeService()
        try await service.lists.add(named: "Home")
        let names = ["Work", "work", " HOME ", "Errands"] + (0..<2_000).map { "List \($0)" }
        let entries = names.enumerated().map { TodoFile.Entry(item: TodoItem(text: "item \($0.offset)"), listName: $0.element) }
        #expect(try await service.items.importEntries(entries).added == names.count)
        let lists = try service.lists.all()
        #expect(lists.count == 1 + 2 + 2_000)
        let positions: [Double] = lists.map(\.position)
        #expect(positions == positions.sorted() && Set(positions).count == lists.count)
        let work = try #require(lists.first { $0.name == "Work" })
        #expect(try service.items.allItems().filter { $0.listId == work.id }.count == 2)
        #expect(try service.items.allItems().filter { $0.listId == lists.first { $0.name == "Home" }?.id }.count == 1)
        _ = try service.undoing.undo()  // the items
        _ = try service.undoing.undo()  // the lists the import made
        #expect(try service.lists.all().map(\.name) == ["Home"])
    }

    @Test(arguments: ["tab\there", "new\nline", "esc\u{1B}[31m"])
    func aListNameIsOneLineWithoutControlCharacters(_ name: String) async throws {
        let service = try makeService()
        await #expect(throws: SyncError.self) { try await service.lists.add(named: name) }
        #expect(try service.lists.all().isEmpty)
    }

    @Test(arguments: ["\n", " \t\n ", "\r\n"])
    func anItemOfOnlySpacesAndLineBreaksIsRefused(_ text: String) async throws {
        let service = try makeService()
        await #expect(throws: SyncError.self) { try await service.items.add(TodoItem(text: text)) }
        var item = try await service.items.add(TodoItem(text: "fine"))
        item.text = text
        await #expect(throws: SyncError.self) { try await service.items.save(item) }
        #expect(try service.items.item(id: item.id)?.text == "fine")
    }

    @Test func completingByATextMatchIgnoresLetterCaseBeyondASCII() async throws {
        let service = try makeService()
        try await service.items.add(TodoItem(text: "ÉCOLE trip"))
        try await service.items.add(TodoItem(text: "other"))
        #expect(try service.items.setCompleteAll(matching: "école", to: true) == 1)
        #expect(try service.items.allItems().filter(\.complete).map(\.text) == ["ÉCOLE trip"])
    }

    @Test func theInstanceAfterTheNextKeepsTheSeriesRoot() async throws {
        let service = try makeService()
        let item = try await service.items.add(TodoItem(text: "standup", due: DueDate("2026-11-27")!, repeatRule: .weekdays))
        try await service.items.setComplete(id: item.id, to: true)
        try await service.items.setComplete(id: "\(item.id)-20261130", to: true)
        #expect(try service.items.item(id: "\(item.id)-20261201")?.due?.text == "2026-12-01")
    }

    @Test func deletingAListMovesItsItemsToTheInboxOrDeletesThem() async throws {
        let service = try makeService()
        let home = try await service.lists.add(named: "Home")
        let work = try await service.lists.add(named: "Work")
        let a = try await service.items.add(TodoItem(text: "a", listId: home.id))
        let b = try await service.items.add(TodoItem(text: "b", listId: work.id))
        #expect(try await service.lists.remove(named: "home", withItems: false) == 1)
        #expect(try service.items.item(id: a.id)?.listId == nil)
        #expect(try await service.lists.remove(named: "Work", withItems: true) == 1)
        #expect(try service.items.item(id: b.id) == nil)
        #expect(try service.lists.all().isEmpty)
    }

    @Test func listNamesAreUniqueWithoutLetterCaseAndTheInboxIsTaken() async throws {
        let service = try makeService()
        try await service.lists.add(named: "Home")
        await #expect(throws: SyncError.self) { try await service.lists.add(named: "home") }
        await #expect(throws: SyncError.self) { try await service.lists.add(named: "inbox") }
        #expect(try await service.lists.ensure(named: "HOME").name == "Home")
    }

    @Test func anItemWhoseListIsGoneShowsInTheInbox() async throws {
        let service = try makeService()
        let item = try await service.items.add(TodoItem(text: "orphan", listId: "deleted-elsewhere"))
        #expect(service.lists.shownList(of: item, among: try service.lists.all()) == nil)
    }

    @Test func importingATodoTxtFileMakesItsLists() async throws {
        let service = try makeService()
        let entries = try TodoFile.parse(Data("(A) Call plumber +home @phone due:2026-11-30\n".utf8))
        #expect(try await service.items.importEntries(entries).added == 1)
        #expect(try service.lists.all().map(\.name) == ["home"])
        #expect(TodoFile.render(try service.exporting.allEntries(), as: .todotxt) == "(A) Call plumber +home @phone due:2026-11-30\n")
    }

    @Test func anImportAddsWhatIsNewOnceAndCountsTheRestAsPresent() async throws {
        let service = try makeService()
        let here = try await service.items.add(TodoItem(text: "already here"))
        let new = (1...3).map { TodoItem(id: "new-\($0)", text: "new \($0)") }
        // The file holds one item twice (in another letter case too) and one the store has.
        let added = try service.items.importItems(new + [TodoItem(id: "NEW-2", text: "again"), TodoItem(id: here.id, text: "changed")])
        #expect(added == (3, 2))
        #expect(try service.items.item(id: "new-2")?.text == "new 2")
        #expect(try service.items.item(id: here.id)?.text == "already here")
        #expect(service.server.pendingCount == 4)
        #expect(try service.undoing.undo() != nil)
        #expect(try service.items.allItems().map(\.id) == [here.id])
    }

    @Test func twoDevicesCompletingTheSameInstanceOfflineEndWithOneNextItem() async throws {
        let server = try await SharedServerProcess.shared.get().baseURL
        let laptop = try makeService(server: server)
        let phone = try makeService(server: server)
        let item = try await laptop.items.add(TodoItem(text: "take out the bins", due: day, repeatRule: .every(1, .week)))
        try await laptop.server.sync()
        try await phone.server.sync()
        try await laptop.items.setComplete(id: item.id, to: true)
        try await phone.items.setComplete(id: item.id, to: true)
        try await laptop.server.sync()
        try await phone.server.sync()
        try await laptop.server.sync()
        for device in [laptop, phone] {
            // The shared server holds other tests' items too: this series' only.
            let items = try device.items.allItems().filter { $0.id.hasPrefix(item.id) }
            #expect(items.count == 2)
            #expect(items.filter { !$0.complete }.map(\.id) == ["\(item.id)-20261201"])
            #expect(device.server.pendingCount == 0)
        }
    }

    @Test func tagsAddedOnOneDeviceAndRemovedOnTheOtherBothSurvive() async throws {
        let server = try await SharedServerProcess.shared.get().baseURL
        let laptop = try makeService(server: server)
        let phone = try makeService(server: server)
        let item = try await laptop.items.add(TodoItem(text: "plan trip", tags: ["someday", "travel"]))
        try await laptop.server.sync()
        try await phone.server.sync()
        var onLaptop = try #require(try laptop.items.item(id: item.id))
        onLaptop.tags.insert("urgent")
        try await laptop.items.save(onLaptop)
        var onPhone = try #require(try phone.items.item(id: item.id))
        onPhone.tags.remove("someday")
        try await phone.items.save(onPhone)
        try await laptop.server.sync()
        try await phone.server.sync()
        try await laptop.server.sync()
        #expect(try laptop.items.item(id: item.id)?.tags == ["travel", "urgent"])
        #expect(try phone.items.item(id: item.id)?.tags == ["travel", "urgent"])
    }

    @Test func listsAndTheNewFieldsReachTheOtherDevice() async throws {
        let server = try await SharedServerProcess.shared.get().baseURL
        let laptop = try makeService(server: server)
        let phone = try makeService(server: server)
        let name = "Home " + UUID().uuidString.prefix(8)  // the shared server holds other tests' lists
        let home = try await laptop.lists.add(named: name)
        try await laptop.items.add(TodoItem(text: "fix tap", notes: "washer 15mm", due: DueDate("2026-12-01T18:00"), priority: .high,
                                      tags: ["diy"], listId: home.id))
        try await laptop.server.sync()
        try await phone.server.sync()
        #expect(try phone.lists.named( name)?.id == home.id)
        let entry = try #require(try phone.exporting.allEntries().first { $0.item.text == "fix tap" && $0.listName == name })
        #expect(entry.item.notes == "washer 15mm" && entry.item.due?.text == "2026-12-01T18:00" && entry.item.priority == .high)
    }
}
