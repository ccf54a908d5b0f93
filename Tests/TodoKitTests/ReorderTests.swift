import Foundation
import OfflineSync
import Testing
@testable import TodoKit
@testable import TodoModel

/// The manual order (#58): a move writes the moved item's key between its neighbours', and only
/// that row, unless the neighbours were never placed, share a key, or the gap is too narrow.
@Suite struct ReorderTests {
    let today = DueDate("2026-11-24")!

    func manual(_ service: TodoStore, list: ItemListing.List? = nil) throws -> [String] {
        var texts: [String] = []
        var listing = ItemListing(list: list, includeCompleted: true)
        listing.sort = .manual
        try service.listing.forEachChunk(of: listing, today: today) { texts += $0.map(\.item.text) }
        return texts
    }

    func item(_ service: TodoStore, _ text: String) throws -> TodoItem {
        try #require(try service.items.allItems().first { $0.text == text })
    }

    /// Items "a" to "e" placed in that order.
    func placed(_ count: Int = 5) async throws -> TodoStore {
        let service = try makeService()
        var key: String?
        for letter in "abcdefghij".prefix(count) {
            key = OrderKey.between(key, nil)
            try await service.items.add(TodoItem(id: String(letter), text: String(letter), order: key))
        }
        return service
    }

    @Test func aMoveBetweenPlacedItemsWritesOnlyTheMovedOne() async throws {
        let service = try await placed()
        let written = try service.items.reorder(try item(service, "e"), after: try item(service, "a"), before: try item(service, "b"), among: service.items.table.query)
        #expect(written == 1)
        #expect(try manual(service) == ["a", "e", "b", "c", "d"])
    }

    @Test func toTheTopAndTheBottom() async throws {
        let service = try await placed()
        try service.items.reorder(try item(service, "c"), to: .top)
        #expect(try manual(service) == ["c", "a", "b", "d", "e"])
        try service.items.reorder(try item(service, "a"), to: .bottom)
        #expect(try manual(service) == ["c", "b", "d", "e", "a"])
    }

    @Test func beforeAndAfterAnotherItem() async throws {
        let service = try await placed()
        try service.items.reorder(try item(service, "a"), to: .after(try item(service, "c")))
        #expect(try manual(service) == ["b", "c", "a", "d", "e"])
        try service.items.reorder(try item(service, "e"), to: .before(try item(service, "b")))
        #expect(try manual(service) == ["e", "b", "c", "a", "d"])
    }

    @Test func itemsNeverPlacedSortLastInTheTaskOrderAndArePlacedOnceWhenAMovePassesThem() async throws {
        let service = try await placed(2)
        for (id, day) in [("x", 3), ("y", 1), ("z", 2)] { try await service.items.add(TodoItem(id: id, text: id, due: today.adding(days: day))) }
        #expect(try manual(service) == ["a", "b", "y", "z", "x"])
        // "a" after "z": y and z are placed first, in the order they show; x stays unplaced, last.
        let written = try service.items.reorder(try item(service, "a"), to: .after(try item(service, "z")))
        #expect(written == 3)
        #expect(try manual(service) == ["b", "y", "z", "a", "x"])
        #expect(try item(service, "x").order == nil)
    }

    @Test func twoItemsSharingAKeyAreSplitWhenOneMovesBetweenThem() async throws {
        let service = try makeService()
        let key = OrderKey.between(nil, nil)!
        for id in ["p", "q"] { try await service.items.add(TodoItem(id: id, text: id, order: key)) }
        try await service.items.add(TodoItem(id: "r", text: "r", order: OrderKey.between(key, nil)))
        #expect(try manual(service) == ["p", "q", "r"])
        try service.items.reorder(try item(service, "r"), to: .after(try item(service, "p")))
        #expect(try manual(service) == ["p", "r", "q"])
    }

    @Test func thousandsOfMovesIntoOneGapKeepEveryKeyShortWithFewWritesEach() async throws {
        let service = try await placed(2)
        let (a, b) = (try item(service, "a"), try item(service, "b"))
        var written = 0
        // Each new item goes just before the last one moved: every move narrows the same gap.
        var upper = b
        for n in 0..<1_500 {
            let moved = try await service.items.add(TodoItem(id: "m\(n)", text: "m\(n)", order: OrderKey.between(b.order, nil)))
            written += try service.items.reorder(moved, after: a, before: upper, among: service.items.table.query)
            upper = try #require(try service.items.item(id: moved.id))
        }
        let keys = try service.items.allItems().compactMap(\.order)
        #expect(keys.allSatisfy { $0.utf8.count <= OrderKey.maximumLength })
        #expect(written < 1_500 * 3)
        let order = try manual(service)
        #expect(order.first == "a" && order.last == "b")
        let moved: [String] = (0..<1_500).reversed().map { (index: Int) -> String in "m\(index)" }
        #expect(Array(order.dropFirst().dropLast()) == moved)
    }

    @Test func oneUndoTakesAMoveBackWithTheKeysItGaveItsNeighbours() async throws {
        let service = try await placed(1)
        for id in ["x", "y"] { try await service.items.add(TodoItem(id: id, text: id)) }
        try service.items.reorder(try item(service, "a"), to: .after(try item(service, "y")))
        #expect(try manual(service) == ["x", "y", "a"])
        _ = try service.undoing.undo()
        #expect(try manual(service) == ["a", "x", "y"])
        #expect(try item(service, "x").order == nil)
    }
}
