import Foundation
import OfflineSync
import Testing
@testable import TodoKit
@testable import TodoModel

/// `todo list`'s items read from the store a chunk at a time: each flag narrows them as the
/// in-memory filter did, in the task order, whatever their number.
@Suite struct ItemListingTests {
    let today = DueDate("2026-11-24")!

    func listed(_ service: TodoStore, _ listing: ItemListing) throws -> [String] {
        var texts: [String] = []
        try service.listing.forEachChunk(of: listing, today: today) { texts += $0.map(\.item.text) }
        return texts
    }

    func fixture() async throws -> (TodoStore, TodoList) {
        let service = try makeService()
        let home = try await service.lists.add(named: "Home")
        for item in [TodoItem(id: "a", text: "fix tap", tags: ["diy"], listId: home.id), TodoItem(id: "b", text: "call mum", due: today, tags: ["family", "diy"]),
                     TodoItem(id: "c", text: "pay bill", due: DueDate("2026-11-20")), TodoItem(id: "d", text: "book trip", due: DueDate("2026-11-27T18:00")),
                     TodoItem(id: "e", text: "old thing", complete: true, due: today), TodoItem(id: "f", text: "orphan", listId: "gone"),
                     TodoItem(id: "g", text: "far off", due: DueDate("2026-12-10"))] {
            try await service.items.add(item)
        }
        return (service, home)
    }

    @Test func withoutFlagsItListsTheOpenItemsInTheTaskOrder() async throws {
        let (service, _) = try await fixture()
        #expect(try listed(service, ItemListing()) == ["pay bill", "call mum", "book trip", "far off", "fix tap", "orphan"])
        #expect(try listed(service, ItemListing(includeCompleted: true)).contains("old thing"))
    }

    @Test func eachFlagNarrowsItAsTheCommandSays() async throws {
        let (service, home) = try await fixture()
        #expect(try listed(service, ItemListing(dueByToday: true)) == ["pay bill", "call mum"])
        #expect(try listed(service, ItemListing(dueByToday: true, includeCompleted: true)) == ["pay bill", "call mum", "old thing"])
        #expect(try listed(service, ItemListing(dueInNextWeek: true)) == ["book trip"])
        #expect(try listed(service, ItemListing(list: .list(id: home.id))) == ["fix tap"])
        #expect(try listed(service, ItemListing(list: .inbox)) == ["pay bill", "call mum", "book trip", "far off", "orphan"])
        #expect(try listed(service, ItemListing(tag: "diy")) == ["call mum", "fix tap"])
    }

    @Test func eachItemCarriesTheListItShowsIn() async throws {
        let (service, home) = try await fixture()
        var lists: [String: String] = [:]
        try service.listing.forEachChunk(of: ItemListing(), today: today) { for listed in $0 { lists[listed.item.id] = listed.list?.id ?? "Inbox" } }
        #expect(lists["a"] == home.id && lists["b"] == "Inbox" && lists["f"] == "Inbox")
    }

    @Test func manyItemsComeInChunksAsTheWholeSortedFilterWould() async throws {
        let service = try makeService()
        let priorities: [Priority?] = [nil, .high, .medium, .low]
        let items = (0..<1_300).map { n in
            TodoItem(id: "i\(n)", text: "task \((n * 7919) % 97)", complete: n % 5 == 0, due: n % 4 == 0 ? nil : today.adding(days: n % 11 - 5),
                     priority: priorities[n % 4])
        }
        _ = try service.items.importItems(items)
        var chunks: [[ListedItem]] = []
        try service.listing.forEachChunk(of: ItemListing(), today: today) { chunks.append($0) }
        let expected = items.filter { !$0.complete }.sorted(by: TodoItem.dueOrder).map(\.id)
        #expect(chunks.count == 3)
        #expect(chunks.flatMap { $0 }.map(\.item.id) == expected)
        #expect(chunks.allSatisfy { $0.allSatisfy(\.isPending) })
    }
}
