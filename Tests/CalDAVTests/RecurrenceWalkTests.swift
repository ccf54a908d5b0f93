@testable import CalDAV
import Foundation
import Testing
import TodoModel

/// The repeat walker answers a range at any distance from DTSTART: the periods before the range
/// are counted in closed form, and what it finds is what walking every instance from the start finds.
@Suite struct RecurrenceWalkTests {
    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    private func date(_ text: String) -> Date { CalendarQueryFilter.instant(text)! }

    /// The instances the walker gives in `[start, end)`, after the first.
    private func walked(_ rule: String, first: Date, _ start: Date, _ end: Date) -> [Date] {
        var found: [Date] = []
        _ = RecurrenceExpansion(rule)!.anyInstance(first: first, span: 0, rangeStart: start, rangeEnd: end) { offset in
            let instant = first.addingTimeInterval(offset)
            if offset > 0, instant >= start, instant < end { found.append(instant) }
            return false
        }
        return found
    }

    /// Every instance from the first, one by one, that falls in `[start, end)`, after the first.
    private func listed(frequency: String, interval: Int, weekdays: [Int], count: Int?, first: Date, _ start: Date, _ end: Date) -> [Date] {
        var found: [Date] = [], seen = 0, index = 0
        if !weekdays.isEmpty, !weekdays.contains(Self.utc.component(.weekday, from: first)) { seen = 1 }
        while true {
            let instant: Date
            if weekdays.isEmpty {
                let unit: Calendar.Component = ["DAILY": .day, "WEEKLY": .weekOfYear, "MONTHLY": .month, "YEARLY": .year][frequency]!
                instant = Self.utc.date(byAdding: unit, value: index * interval, to: first)!
            } else {
                instant = first.addingTimeInterval(Double(index) * 86_400)
                guard weekdays.contains(Self.utc.component(.weekday, from: instant)) else {
                    index += 1
                    continue
                }
            }
            index += 1
            if let count, seen >= count { return found }
            guard instant < end else { return found }
            seen += 1
            if instant > first, instant >= start { found.append(instant) }
        }
    }

    @Test func aWeeklyRepeatWithACountMatchesDecemberFortySixYearsOn() throws {
        let text = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:w", "DTSTART:19800107T090000Z",
                    "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3000", "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n")
        let task = try #require(try ICalendarReader.components(text).first?.components.first)
        let december = CalendarQueryFilter.TimeRange(start: date("20261201T000000Z"), end: date("20270101T000000Z"))
        #expect(CalendarQueryFilter.overlaps(task, december))
        // 3,000 Mondays from 7 January 1980 end in June 2037.
        let after = CalendarQueryFilter.TimeRange(start: date("20380101T000000Z"), end: date("20390101T000000Z"))
        #expect(!CalendarQueryFilter.overlaps(task, after))
        var budget = ReportBudget()
        let expanded = try #require(ExpandedTask.text(text, over: december, budget: &budget))
        let days: [String] = expanded.components(separatedBy: "RECURRENCE-ID:").dropFirst().map { (part: String) -> String in String(part.prefix(8)) }
        #expect(days == ["20261207", "20261214", "20261221", "20261228"])
    }

    /// The bounded-work issue's alarm query: fifty alarms on that rule, each found by its trigger.
    @Test func anAlarmOfAWeeklyRepeatWithACountGoesOffInDecemberFortySixYearsOn() throws {
        let alarms = (1...50).flatMap { ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:a", "TRIGGER:-PT\($0)M", "END:VALARM"] }
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:w", "DTSTART:19800107T090000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3000"]
                    + alarms + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
        let task = try #require(try ICalendarReader.components(text).first?.components.first)
        let alarm = try #require(task.components.last)
        // 08:10 on Monday 7 December 2026 is the fiftieth alarm's trigger; 08:09 is none's.
        #expect(CalendarQueryFilter.overlaps(alarm, .init(start: date("20261207T081000Z"), end: date("20261207T081001Z")), parent: task))
        #expect(!CalendarQueryFilter.overlaps(alarm, .init(start: date("20261207T080900Z"), end: date("20261207T081000Z")), parent: task))
    }

    @Test func anAlarmRepeatedEveryMinuteIsFoundByItsNthTrigger() throws {
        let text = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:r", "DTSTART:20260105T090000Z", "RRULE:FREQ=DAILY",
                    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:a", "TRIGGER:PT0S", "REPEAT:100", "DURATION:PT1M", "END:VALARM",
                    "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n")
        let task = try #require(try ICalendarReader.components(text).first?.components.first)
        let alarm = try #require(task.components.first)
        // The 73rd repeat of 1 March 2026's instance: 10:13.
        #expect(CalendarQueryFilter.overlaps(alarm, .init(start: date("20260301T101300Z"), end: date("20260301T101301Z")), parent: task))
        // Past the 100th repeat (10:40) and before the next day's first.
        #expect(!CalendarQueryFilter.overlaps(alarm, .init(start: date("20260301T104030Z"), end: date("20260302T085959Z")), parent: task))
    }

    @Test func theLastInstanceOfACountIsWhereListingEveryInstanceEnds() {
        let first = date("19800107T090000Z")
        let instances = walked("FREQ=WEEKLY;BYDAY=MO,TH;COUNT=3001", first: first, date("20080101T000000Z"), date("20090101T000000Z"))
        let expected = listed(frequency: "WEEKLY", interval: 1, weekdays: [2, 5], count: 3001, first: first, date("20080101T000000Z"), date("20090101T000000Z"))
        #expect(!expected.isEmpty)
        #expect(instances == expected)
    }

    /// Rules `todo` writes, at seeded distances from their start: the closed form agrees with
    /// listing every instance.
    @Test(arguments: 0..<60)
    func walkingFromTheRangeFindsWhatListingFromTheStartFinds(_ seed: Int) {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let frequencies = ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]
        let frequency = frequencies[next(4)]
        let weekdays = frequency == "WEEKLY" && next(2) == 0 ? Array(Set((0..<(1 + next(3))).map { _ in 1 + next(7) })).sorted() : []
        let interval = weekdays.isEmpty ? 1 + next(3) : 1
        let count: Int? = next(2) == 0 ? 1 + next(4_000) : nil
        let first = date("19700101T090000Z").addingTimeInterval(Double(next(30 * 365)) * 86_400)
        let start = first.addingTimeInterval(Double(next(60 * 365)) * 86_400)
        let end = start.addingTimeInterval(Double(1 + next(400)) * 86_400)
        let names = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
        var rule = "FREQ=\(frequency);INTERVAL=\(interval)"
        if let count { rule += ";COUNT=\(count)" }
        if !weekdays.isEmpty { rule += ";BYDAY=" + weekdays.map { names[$0 - 1] }.joined(separator: ",") }
        let first28 = Self.utc.component(.day, from: first) <= 28 ? first : first.addingTimeInterval(-4 * 86_400)
        #expect(walked(rule, first: first28, start, end) == listed(frequency: frequency, interval: interval, weekdays: weekdays, count: count, first: first28, start, end),
                "\(rule) from \(first28) over \(start)–\(end)")
    }
}
