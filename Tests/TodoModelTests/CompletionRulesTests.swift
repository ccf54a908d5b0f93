import Foundation
import Testing
@testable import TodoModel

/// The completion rules every path that completes or reopens an item asks.
@Suite struct CompletionRulesTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T…Z
    let earlier = "2026-11-01T08:00:00.000Z"

    @Test func completingStampsCompletedAtWithNow() {
        let saved = CompletionRules.saving(TodoItem(text: "milk").completed, wasComplete: false, now: now)
        #expect(saved.completedAt == "2026-11-18T11:06:40.000Z")
    }

    @Test func anItemThatStaysCompleteKeepsItsStamp() {
        var item = TodoItem(text: "milk", complete: true, completedAt: earlier)
        item.text = "oat milk"
        #expect(CompletionRules.saving(item, wasComplete: true, now: now).completedAt == earlier)
    }

    @Test func aCompleteItemWithoutAStampGetsOne() {
        let item = TodoItem(text: "milk", complete: true)
        #expect(CompletionRules.saving(item, wasComplete: true, now: now).completedAt != nil)
    }

    @Test func reopeningClearsTheStamp() {
        let item = TodoItem(text: "milk", complete: false, completedAt: earlier)
        #expect(CompletionRules.saving(item, wasComplete: true, now: now).completedAt == nil)
    }

    @Test func completingARepeatingItemMakesItsNextInstanceWithAnIdFromTheSeries() throws {
        let item = TodoItem(id: "water", text: "water plants", due: DueDate("2026-11-24"), repeatRule: RepeatRule("weekly"))
        let next = try #require(CompletionRules.nextInstance(saving: item.completed, wasComplete: false, now: now))
        #expect(next.id == "water-20261201")
        #expect(next.due == DueDate("2026-12-01"))
        #expect(next.series == "water")
        #expect(!next.complete)
    }

    @Test func twoDevicesCompletingTheSameInstanceMakeTheSameNextOne() {
        let item = TodoItem(id: "water", text: "water plants", due: DueDate("2026-11-24"), repeatRule: RepeatRule("weekly"))
        let here = CompletionRules.nextInstance(saving: item.completed, wasComplete: false, now: now)
        let there = CompletionRules.nextInstance(saving: item.completed, wasComplete: false, now: now.addingTimeInterval(86_400 * 3))
        #expect(here?.id == there?.id)
    }

    @Test func noNextInstanceForAnItemThatWasCompleteAlreadyOrDoesNotRepeat() {
        let repeating = TodoItem(id: "water", text: "water plants", due: DueDate("2026-11-24"), repeatRule: RepeatRule("weekly"))
        #expect(CompletionRules.nextInstance(saving: repeating.completed, wasComplete: true, now: now) == nil)
        #expect(CompletionRules.nextInstance(saving: TodoItem(text: "once").completed, wasComplete: false, now: now) == nil)
        #expect(CompletionRules.nextInstance(saving: repeating, wasComplete: false, now: now) == nil)  // still open
    }
}
