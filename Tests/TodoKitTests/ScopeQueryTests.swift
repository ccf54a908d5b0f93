import Foundation
import OfflineSync
import Testing
@testable import TodoKit
@testable import TodoModel

/// The scopes' queries on a real store: what each holds, in what order, and their live counts.
@Suite struct ScopeQueryTests {
    let today = DueDate("2026-11-24")!

    func service() async throws -> (TodoService, TodoList) {
        let service = try makeService()
        let home = try await service.addList(named: "Home")
        for item in [TodoItem(id: "a", text: "fix tap", listId: home.id), TodoItem(id: "b", text: "call mum", due: today),
                     TodoItem(id: "c", text: "pay bill", due: DueDate("2026-11-20")), TodoItem(id: "d", text: "book trip", due: DueDate("2026-11-27T18:00")),
                     TodoItem(id: "e", text: "old thing", complete: true), TodoItem(id: "f", text: "orphan", listId: "gone")] {
            try await service.add(item)
        }
        return (service, home)
    }

    func texts(_ service: TodoService, _ scope: ListScope, _ home: TodoList) throws -> [String] {
        try service.window(ListWindowRequest(scope: scope, context: ScopeContext(today: today, listIds: [home.id]))).items.map(\.text)
    }

    @Test func eachScopeHoldsItsItemsInItsOrder() async throws {
        let (service, home) = try await service()
        #expect(try texts(service, .today, home) == ["pay bill", "call mum"])
        #expect(try texts(service, .upcoming, home) == ["book trip"])
        #expect(try texts(service, .inbox, home) == ["pay bill", "call mum", "book trip", "orphan"])
        #expect(try texts(service, .list(id: home.id, name: "Home"), home) == ["fix tap"])
        #expect(try texts(service, .completed, home) == ["old thing"])
    }

    @Test func theInboxReadsAsBeforeBesideThousandsOfLists() async throws {
        let (service, home) = try await service()
        let lists = [home.id] + (0..<5_000).map { "list-\($0)" }
        let window = try service.window(ListWindowRequest(scope: .inbox, context: ScopeContext(today: today, listIds: lists)))
        #expect(window.items.map(\.text) == ["pay bill", "call mum", "book trip", "orphan"])
    }

    @Test func theListSortsByDueThenPriorityThenText() async throws {
        let service = try makeService()
        for item in [TodoItem(id: "1", text: "b none"), TodoItem(id: "2", text: "a none"), TodoItem(id: "3", text: "low", due: today, priority: .low),
                     TodoItem(id: "4", text: "high", due: today, priority: .high), TodoItem(id: "5", text: "plain", due: today),
                     TodoItem(id: "6", text: "earlier", due: DueDate("2026-11-01")), TodoItem(id: "7", text: "undated but high", priority: .high)] {
            try await service.add(item)
        }
        #expect(try service.window(ListWindowRequest()).items.map(\.text) == ["earlier", "high", "low", "plain", "undated but high", "a none", "b none"])
    }

    @Test func aTagFilterMatchesWholeWordsOnly() async throws {
        let service = try makeService()
        for (id, tags) in [("a", ["art"]), ("b", ["party"]), ("c", ["art", "home"]), ("d", ["home", "smart", "art"])] {
            try await service.add(TodoItem(id: id, text: id, tags: Set(tags)))
        }
        let ids = try service.window(ListWindowRequest(filterText: "#art")).items.map(\.id)
        #expect(ids == ["a", "c", "d"])
    }

    @Test func theCountsAreALiveQuery() async throws {
        let (service, home) = try await service()
        let scopes = ListScope.every(lists: [home])
        var counts = service.observeCounts(of: scopes, context: ScopeContext(today: today, listIds: [home.id])).makeAsyncIterator()
        let first = try #require(try await counts.next())
        #expect(first[.all] == 5 && first[.inbox] == 4 && first[.today] == 2 && first[.upcoming] == 1 && first[.completed] == 1)
        #expect(first[.list(id: home.id, name: "Home")] == 1)
        try await service.add(TodoItem(text: "due too", due: today))
        #expect(try await counts.next()?[.today] == 3)
    }
}
