import Foundation
import PropertyBased
import Testing
@testable import TodoModel

/// A repeating item's laws: one next instance per completed instance, wherever and whenever it
/// is completed.
@Suite struct RepeatLawTests {
    static let rule = Gen.element(of: ["daily", "weekly", "monthly", "yearly", "weekdays", "3d", "2w", "1m", "2y"]).compactMap { $0.flatMap(RepeatRule.init) }
    static let due = Gen.int(in: 0...(365 * 80)).compactMap { days in
        DueDate(day: Date(timeIntervalSince1970: 946_684_800 + Double(days) * 86_400), calendar: RepeatLawTests.utc)
    }
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    func completing(_ item: TodoItem, at now: Date) -> TodoItem? {
        CompletionRules.nextInstance(saving: item.completed, wasComplete: false, now: now)
    }

    @Test func anInstanceCompletedOnAnyDeviceAtAnyTimeMakesTheSameNextInstance() async {
        await propertyCheck(count: LawCases.count, input: Self.rule, Self.due, Gen.int(in: 0...1_000_000_000)) { rule, due, later in
            let item = TodoItem(id: "series", text: "water", due: due, repeatRule: rule)
            let here = completing(item, at: Date(timeIntervalSince1970: 1_700_000_000))
            let there = completing(item, at: Date(timeIntervalSince1970: 1_700_000_000 + Double(later)))
            #expect(here?.id == there?.id)
            #expect(here?.due == there?.due)
        }
    }

    @Test func eachCompletionOfASeriesMakesOneNewInstanceLaterThanTheLast() async {
        await propertyCheck(count: LawCases.count, input: Self.rule, Self.due, Gen.int(in: 1...30)) { rule, due, completions in
            var item = TodoItem(id: "series", text: "water", due: due, repeatRule: rule)
            var ids: Set<String> = [item.id]
            for _ in 0..<completions {
                guard let next = completing(item, at: Date()) else { break }  // past 9999-12-31: the series ends
                #expect(next.due! > item.due!)
                #expect(ids.insert(next.id).inserted, "\(next.id) twice")
                #expect(next.series == "series")
                item = next
            }
        }
    }
}
