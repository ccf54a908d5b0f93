import Foundation
import Testing
@testable import TodoModel

/// The manual order's keys (#58): a key between any two, integers for CalDAV both ways, and what
/// a CalDAV write keeps.
@Suite struct OrderKeyTests {
    func sortsBefore(_ a: String, _ b: String) -> Bool { Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8)) }

    @Test func aKeyBetweenTwoSortsBetweenThemByteByByte() throws {
        var generator = SystemRandomNumberGenerator()
        var keys = [OrderKey.between(nil, nil)!]
        for _ in 0..<2_000 {
            let index = Int.random(in: 0...keys.count, using: &generator)
            let lower = index > 0 ? keys[index - 1] : nil, upper = index < keys.count ? keys[index] : nil
            let key = try #require(OrderKey.between(lower, upper))
            if let lower { #expect(sortsBefore(lower, key)) }
            if let upper { #expect(sortsBefore(key, upper)) }
            keys.insert(key, at: index)
        }
        #expect(keys == keys.sorted { sortsBefore($0, $1) })
    }

    @Test func appendingAndPrependingKeepKeysAtElevenDigits() {
        var last = OrderKey.between(nil, nil)!, first = last
        for _ in 0..<1_000 {
            last = OrderKey.between(last, nil)!
            first = OrderKey.between(nil, first)!
        }
        #expect(last.count == OrderKey.integerDigits && first.count == OrderKey.integerDigits)
        #expect(sortsBefore(first, last))
    }

    @Test func equalOrOutOfOrderNeighboursHaveNoKeyBetween() {
        let key = OrderKey.between(nil, nil)!
        #expect(OrderKey.between(key, key) == nil)
        #expect(OrderKey.between(OrderKey.between(key, nil)!, key) == nil)
        #expect(OrderKey.between("not a key!", nil) == nil)
    }

    @Test func spreadKeysAreInOrderInsideTheGapAndShort() throws {
        let low = OrderKey.key(integer: 0), high = OrderKey.key(integer: 1)
        let keys = try #require(OrderKey.spread(100, between: low, and: high))
        #expect(keys.count == 100)
        #expect(([low] + keys + [high]) == ([low] + keys + [high]).sorted { sortsBefore($0, $1) })
        #expect(keys.allSatisfy { $0.count <= OrderKey.integerDigits + 2 })
    }

    @Test(arguments: [Int64.min, -1, 0, 1, 1_048_576, 725_000_000, Int64.max])
    func anIntegerIsItsKeyAndBack(_ value: Int64) {
        #expect(OrderKey.integer(OrderKey.key(integer: value)) == value)
    }

    @Test func integersSortAsTheirKeys() {
        let values: [Int64] = [Int64.min, -5_000, -1, 0, 1, 99, 1_000_000, Int64.max]
        let keys = values.map(OrderKey.key(integer:))
        #expect(keys == keys.sorted { sortsBefore($0, $1) })
    }

    @Test func aLongerKeyStandsForTheIntegerOfItsFirstElevenDigits() throws {
        let base = OrderKey.key(integer: 42)
        let longer = try #require(OrderKey.between(base, OrderKey.key(integer: 43)))
        #expect(longer.count > OrderKey.integerDigits)
        #expect(OrderKey.integer(longer) == 42)
    }

    @Test func aCalDAVWriteKeepsTheStoredKeyWhenItsIntegerCameBackAndWhenNoneCame() throws {
        let stored = try #require(OrderKey.between(OrderKey.key(integer: 42), OrderKey.key(integer: 43)))
        #expect(OrderKey.kept(sent: OrderKey.key(integer: 42), stored: stored) == stored)
        #expect(OrderKey.kept(sent: nil, stored: stored) == stored)
        #expect(OrderKey.kept(sent: OrderKey.key(integer: 7), stored: stored) == OrderKey.key(integer: 7))
    }

    @Test func theJSONOrderIsAKeyOrRefusedNamingIt() throws {
        let item = TodoItem(id: "a", text: "x", order: OrderKey.key(integer: 3))
        let object = ItemJSON.object(item, listName: nil)
        #expect(object["order"] == .string(OrderKey.key(integer: 3)))
        #expect(try ItemJSON.entry(object, stableId: { _ in "a" }).item.order == item.order)
        #expect(throws: (any Error).self) { try ItemJSON.entry(["text": .string("x"), "order": .string("1.5")], stableId: { _ in "a" }) }
    }

    @Test func xAppleSortOrderIsReadAsTheOrderAndWrittenFromIt() throws {
        let text = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VTODO", "UID:t-1", "SUMMARY:Milk",
                    "X-APPLE-SORT-ORDER:725000000", "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n")
        let task = try VTODOMapping.read(text)
        #expect(task.item.order == OrderKey.key(integer: 725_000_000))
        let written = VTODOMapping.write(task, updated: Date(timeIntervalSince1970: 1_795_000_000))
        #expect(written.components(separatedBy: "X-APPLE-SORT-ORDER").count == 2)
        #expect(written.contains("X-APPLE-SORT-ORDER:725000000\r\n"))
    }

    @Test func aSortOrderThatIsNoIntegerIsKeptAsItCame() throws {
        let text = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VTODO", "UID:t-1", "SUMMARY:Milk",
                    "X-APPLE-SORT-ORDER:soon", "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n")
        let task = try VTODOMapping.read(text)
        #expect(task.item.order == nil)
        #expect(VTODOMapping.write(task, updated: Date()).contains("X-APPLE-SORT-ORDER:soon\r\n"))
    }
}
