import Foundation
import OfflineSync
import Testing
@testable import TodoKit
import TodoKitTestSupport
@testable import TodoModel

/// The filter prompt reads a question (`ItemQuery`, #58): #tag, +List and !priority narrow by
/// field, dates, completion and `or` too, through the store's query as through the in-memory one.
@Suite struct QuestionFilterTests {
    @Test func theListNarrowsByTagListAndPriority() {
        var app = ListFixture()
        app.items = [TodoItem(id: "a", text: "call mum", priority: .high, tags: ["phone"], listId: "home"),
                     TodoItem(id: "b", text: "call bank", tags: ["phone", "money"]),
                     TodoItem(id: "c", text: "fix tap", listId: "home")]
        app.storeChanged()
        app.send(.lists(.listsLoaded([TodoList(id: "home", name: "Home")])))
        app.press(.character("/"))
        app.type("#phone")
        #expect(app.visibleTexts == ["call mum", "call bank"])  // high priority first
        app.type(" +Home")
        #expect(app.visibleTexts == ["call mum"])
        app.press(.escape, .character("/"))
        app.type("!high")
        #expect(app.visibleTexts == ["call mum"])
    }

    /// The store's query and the in-memory match agree, word by word, over one set of items.
    @Test(arguments: ["#garden", "-#garden", "+Home", "-+Home", "!high", "-!high", "due:today", "due:overdue", "due<fri", "due>2026-11-26",
                      "due:none", "-due:none", "start:2026-12-01", "start>today", "is:done", "is:open", "has:notes", "-has:notes",
                      "#work or !low", "tap -#garden", "\"re:meeting\"", "due:+2d", "has:tags due<2026-11-30"])
    func theStoresQueryMeetsTheSameItemsAsTheModel(_ text: String) async throws {
        let service = try makeService()
        let home = try await service.lists.add(named: "Home")
        let today = DueDate("2026-11-24")!  // a Tuesday
        let items = [
            TodoItem(id: "a", text: "weed beds", due: today, tags: ["garden"]),
            TodoItem(id: "b", text: "fix tap", notes: "washer", due: DueDate("2026-11-20"), priority: .high, listId: home.id),
            TodoItem(id: "c", text: "re:meeting notes", complete: true, due: DueDate("2026-11-26T18:00"), tags: ["work", "garden"]),
            TodoItem(id: "d", text: "plant bulbs", start: DueDate("2026-12-01"), priority: .low, tags: ["garden"], listId: home.id),
            TodoItem(id: "e", text: "tap dance", due: DueDate("2026-11-27"), priority: .high),
        ]
        for item in items { try await service.items.add(item) }
        let question = try ItemQuery(text)
        let context = ScopeContext(today: today, lists: [home])
        let query = ListQuery.filter(service.items.table.query, question: question, context: context)
        let stored = Set(try service.items.table.read(query).records.map { TodoItem($0).id })
        let modelled = Set(items.filter { question.matches($0, today: today, listIds: context.listsByName) }.map(\.id))
        #expect(stored == modelled, "\(text)")
        #expect(!modelled.isEmpty && modelled.count < items.count, "\(text) should tell the items apart: \(modelled)")
    }
}
