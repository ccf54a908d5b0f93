import Foundation
import OfflineSync
import Testing
@testable import TodoKit
import TodoKitTestSupport
@testable import TodoModel

/// Windows in the second half of a long list are read from its end (an offset walks every row it
/// skips): the same rows, in the same places, for less work.
@Suite struct WindowFromEndTests {
    func texts(_ count: Int) -> [String] { (0..<count).map { String(format: "item %04d", $0) } }

    /// Sends a key and answers its reads; the windows it asked for.
    func requests(_ app: inout ListFixture, _ key: KeyEvent) -> [ListWindowRequest] {
        app.send(.key(key), answerReads: false)
        let requests = app.unansweredReads.compactMap { effect -> ListWindowRequest? in
            if case .listView(.observeWindow(let request)) = effect { return request }
            return nil
        }
        app.answerHeldReads()
        return requests
    }

    func expectedTexts(_ app: ListFixture) -> [String] {
        (app.state.list.scrollTop..<app.state.list.scrollTop + 10).map { String(format: "item %04d", $0) }
    }

    @Test func endReadsTheLastRowsFromTheEnd() throws {
        var app = ListFixture(texts(1_000))
        let request = try #require(requests(&app, .end).last)
        #expect(request.fromEnd && request.offset == 0)
        #expect(app.visibleTexts == expectedTexts(app))
        #expect(app.state.list.selectedItem?.text == "item 0999")
    }

    @Test func pagingDownReadsTheFirstHalfFromTheStartAndTheSecondFromTheEnd() {
        var app = ListFixture(texts(1_000))
        var asked: [ListWindowRequest] = []
        for _ in 0..<120 {
            asked += requests(&app, .pageDown)
            #expect(app.visibleTexts == expectedTexts(app))
        }
        #expect(app.state.list.selectedItem?.text == "item 0999")
        #expect(asked.filter { !$0.fromEnd }.allSatisfy { $0.offset <= 500 })
        #expect(asked.filter(\.fromEnd).allSatisfy { $0.offset < 500 })
        #expect(asked.contains(where: \.fromEnd) && asked.contains { !$0.fromEnd })
    }

    @Test func rowsReadFromTheEndSitAtTheirPlacesInTheList() throws {
        var app = ListFixture(texts(1_000))
        app.press(.end)
        for _ in 0..<30 { app.press(.pageUp) }
        #expect(app.state.list.selected == 999 - 30 * 9)
        #expect(app.state.list.selectedItem?.text == String(format: "item %04d", 999 - 30 * 9))
        #expect(app.visibleTexts == expectedTexts(app))
    }

    @Test func theStoreReadsAWindowFromTheEndAsTheSameRowsFromTheStart() async throws {
        let service = try makeService()
        let today = DueDate("2026-11-24")!
        let priorities: [Priority?] = [nil, .high, .low]
        _ = try service.items.importItems((0..<300).map { n in
            TodoItem(id: "i\(n)", text: "task \(n % 7)", due: n % 2 == 0 ? nil : today.adding(days: n % 5), priority: priorities[n % 3])
        })
        let forward = try service.listing.window(ListWindowRequest(offset: 200, limit: 60))
        var backward = ListWindowRequest(offset: 300 - 200 - 60, limit: 60)
        backward.fromEnd = true
        #expect(try service.listing.window(backward).items.map(\.id) == forward.items.map(\.id))
        #expect(forward.items.count == 60)
    }
}
