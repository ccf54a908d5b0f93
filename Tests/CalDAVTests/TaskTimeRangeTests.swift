@testable import CalDAV
import Foundation
import Testing
import TodoModel
import WebDAVXML

/// RFC 4791 §9.9's time-range rules for tasks, beyond DTSTART and DUE: a DURATION, an alarm's
/// trigger times, and every instance a repeat rule makes.
@Suite struct TaskTimeRangeTests {
    private func task(_ lines: [String], alarm: [String]? = nil) throws -> ICalendarComponent {
        let alarmLines = alarm.map { ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:x"] + $0 + ["END:VALARM"] } ?? []
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//T//EN", "BEGIN:VTODO", "UID:t", "DTSTAMP:20260101T000000Z"] + lines + alarmLines
            + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
        return try #require(try ICalendarReader.components(text).first)
    }

    private func query(_ start: String?, _ end: String?, alarm: Bool = false) throws -> CalendarQueryFilter {
        let range = "<c:time-range" + (start.map { " start=\"\($0)\"" } ?? "") + (end.map { " end=\"\($0)\"" } ?? "") + "/>"
        let inner = alarm ? "<c:comp-filter name=\"VALARM\">\(range)</c:comp-filter>" : range
        let xml = #"<c:filter xmlns:c="urn:ietf:params:xml:ns:caldav"><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO">"#
            + inner + "</c:comp-filter></c:comp-filter></c:filter>"
        return try CalendarQueryFilter(try DAVXMLReader.read(Data(xml.utf8)))
    }

    @Test func aStartWithADurationMatchesARangeInsideItsSpan() throws {
        let task = try task(["DTSTART:20260118T120000Z", "DURATION:PT2H"])
        #expect(try query("20260118T130000Z", "20260118T150000Z").matches(task))
        #expect(try !query("20260118T143000Z", "20260118T150000Z").matches(task))
    }

    @Test func anAlarmMatchesOnlyWhenItGoesOff() throws {
        let task = try task(["DTSTART:20260110T080000Z", "DUE:20260110T090000Z"], alarm: ["TRIGGER:-PT15M"])
        #expect(try query("20260110T074000Z", "20260110T075000Z", alarm: true).matches(task))
        #expect(try !query("20260110T080000Z", "20260110T081500Z", alarm: true).matches(task))
    }

    @Test func anAlarmRelatedToTheEndGoesOffBeforeTheDueTime() throws {
        let task = try task(["DUE:20260110T090000Z"], alarm: ["TRIGGER;RELATED=END:-PT30M"])
        #expect(try query("20260110T082500Z", "20260110T083500Z", alarm: true).matches(task))
    }

    @Test func anAlarmOfARepeatingTaskGoesOffBeforeAnInstanceThatStartsAfterTheRange() throws {
        let task = try task(["DTSTART:20260105T090000Z", "RRULE:FREQ=WEEKLY"], alarm: ["TRIGGER:-P1D"])
        // The third instance starts 2026-01-19 09:00; its alarm goes off the day before.
        #expect(try query("20260118T080000Z", "20260118T100000Z", alarm: true).matches(task))
        #expect(try !query("20260119T080000Z", "20260119T100000Z", alarm: true).matches(task))
    }

    @Test func aRepeatingTaskMatchesARangeHoldingALaterInstance() throws {
        let task = try task(["DTSTART:20260112T120000Z", "DUE:20260112T130000Z", "RRULE:FREQ=MONTHLY"])
        #expect(try query("20260212T000000Z", "20260213T000000Z").matches(task))
        #expect(try query("20710312T000000Z", "20710313T000000Z").matches(task))
        #expect(try !query("20260215T000000Z", "20260216T000000Z").matches(task))
    }

    @Test func aCountEndsTheInstances() throws {
        let task = try task(["DUE:20260105T090000Z", "RRULE:FREQ=WEEKLY;COUNT=3"])
        #expect(try query("20260119T000000Z", "20260120T000000Z").matches(task))
        #expect(try !query("20260126T000000Z", "20260127T000000Z").matches(task))
    }

    @Test func untilEndsTheInstances() throws {
        let task = try task(["DUE:20260101T090000Z", "RRULE:FREQ=DAILY;UNTIL=20260110T000000Z"])
        #expect(try query("20260109T000000Z", "20260109T235959Z").matches(task))
        #expect(try !query("20260111T000000Z", "20260112T000000Z").matches(task))
    }

    @Test func weekdaysRepeatOnTheNamedDaysOnly() throws {
        // 2026-01-05 is a Monday.
        let task = try task(["DUE:20260105T090000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE"])
        #expect(try query("20260107T000000Z", "20260108T000000Z").matches(task))
        #expect(try !query("20260108T000000Z", "20260109T000000Z").matches(task))
        #expect(try query("20360102T000000Z", "20360103T000000Z").matches(task))  // a Wednesday ten years on
    }

    @Test func aRuleWithPartsNotWalkedMatchesEveryRangeFromItsFirstInstanceToItsUntil() throws {
        // Another app's rule: the 15th of every month, until June.
        let task = try task(["DUE:20260101T090000Z", "RRULE:FREQ=MONTHLY;BYMONTHDAY=15;UNTIL=20260601T000000Z"])
        #expect(try query("20260315T000000Z", "20260316T000000Z").matches(task))
        #expect(try !query("20251201T000000Z", "20251202T000000Z").matches(task))
        #expect(try !query("20270315T000000Z", "20270316T000000Z").matches(task))
    }

    @Test func theFirstInstanceMatchesWhenItIsNotOnANamedWeekday() throws {
        // 2026-01-08 is a Thursday; DTSTART is always the first instance.
        let task = try task(["DTSTART:20260108T090000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO"])
        #expect(try query("20260108T000000Z", "20260109T000000Z").matches(task))
        #expect(try query("20260112T000000Z", "20260113T000000Z").matches(task))
        #expect(try !query("20260115T000000Z", "20260116T000000Z").matches(task))
    }

    @Test func aRuleRepeatingWithinADayIsNotWalkedButNeverMissed() throws {
        let task = try task(["DTSTART:20260101T090000Z", "RRULE:FREQ=HOURLY;INTERVAL=5"])
        #expect(try query("20260301T000000Z", "20260301T010000Z").matches(task))
    }

    @Test func theThirtyFirstOfEveryMonthIsNotWalkedIntoShorterMonths() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let rule = try #require(RecurrenceExpansion("FREQ=MONTHLY"))
        #expect(!rule.isExact(from: try #require(calendar.date(from: DateComponents(year: 2026, month: 1, day: 31)))))
        #expect(rule.isExact(from: try #require(calendar.date(from: DateComponents(year: 2026, month: 1, day: 28)))))
    }

    @Test(arguments: ["FREQ=WEEKLY;BYDAY=MO,WE", "FREQ=DAILY;INTERVAL=3;COUNT=4", "FREQ=MONTHLY;UNTIL=20260601T000000Z"])
    func theRulesTodoWritesAreWalkedExactly(_ rule: String) throws {
        #expect(try #require(RecurrenceExpansion(rule)).exact)
    }

    @Test(arguments: ["FREQ=MONTHLY;BYMONTHDAY=15", "FREQ=MONTHLY;BYDAY=2TU", "FREQ=YEARLY;BYMONTH=3", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH",
                      "FREQ=DAILY;BYHOUR=9,17", "FREQ=HOURLY"])
    func otherRulesAreNotWalked(_ rule: String) throws {
        #expect(try !#require(RecurrenceExpansion(rule)).exact)
    }

    @Test func aDailyRuleYearsAwayIsFoundWithoutWalkingEveryDay() throws {
        let task = try task(["DUE:20260101T090000Z", "RRULE:FREQ=DAILY"])
        #expect(try query("20700601T000000Z", "20700602T000000Z").matches(task))
    }

    @Test(arguments: [("PT2H", 7_200.0), ("-PT15M", -900), ("P1DT12H", 129_600), ("P2W", 1_209_600), ("PT0S", 0)])
    func durationsReadAsRFC5545WritesThem(_ text: String, _ seconds: Double) {
        #expect(ICalendarDuration.seconds(text) == seconds)
    }

    @Test(arguments: ["P", "PT", "P1H", "PT1D", "1H", "P1.5D", "PT1H2", "P-1D"])
    func anythingElseIsNoDuration(_ text: String) {
        #expect(ICalendarDuration.seconds(text) == nil)
    }
}
