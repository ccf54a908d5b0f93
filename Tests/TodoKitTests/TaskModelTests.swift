import Foundation
import Testing
@testable import TodoKit
@testable import TodoModel

/// Due dates, repeat rules and quick add, pure.
@Suite struct DueDateTests {
    @Test func aDayAndADayWithATimeReadAndWriteTheSame() {
        #expect(DueDate("2026-12-01")?.text == "2026-12-01")
        #expect(DueDate("2026-12-01T18:05")?.text == "2026-12-01T18:05")
    }

    @Test func daysThatDoNotExistAreRefused() {
        for text in ["2026-02-29", "2026-13-01", "2026-1-01", "2026-12-01T24:00", "tomorrow", ""] { #expect(DueDate(text) == nil, "\(text)") }
        #expect(DueDate("2028-02-29") != nil)
    }

    @Test func onlyDigitsReadAsNumbers() {
        for text in ["+026-12-01", "2026-1a-01", "2026-12-0 ", "2026-12-01T1:300", "2026-12-01T18-00", "2026-12-01 18:00", "２０２６-12-01"] {
            #expect(DueDate(text) == nil, "\(text)")
        }
    }

    @Test func smallYearsAndTimesWriteWithTheirLeadingZeros() {
        #expect(DueDate(year: 7, month: 3, day: 9, hour: 0, minute: 5)?.text == "0007-03-09T00:05")
        #expect(DueDate("0007-03-09T00:05")?.text == "0007-03-09T00:05")
    }

    @Test func weekdaysAreMondayOneToSundaySeven() {
        #expect(DueDate("2026-11-24")?.weekday == 2)  // a Tuesday
        #expect(DueDate("2026-11-29")?.weekday == 7)
    }

    @Test func aMonthLaterClampsToTheMonthsLastDay() {
        #expect(DueDate("2026-01-31")?.adding(months: 1)?.text == "2026-02-28")
        #expect(DueDate("2026-12-15T09:30")?.adding(months: 1)?.text == "2027-01-15T09:30")
    }

    @Test func daysCrossMonthsAndYears() {
        #expect(DueDate("2026-12-31")?.adding(days: 1)?.text == "2027-01-01")
        #expect(DueDate("2028-03-01")?.adding(days: -1)?.text == "2028-02-29")
    }

    @Test func thereIsNoDayPastTheLastOrBeforeTheFirst() {
        #expect(DueDate.last.adding(days: 1) == nil)
        #expect(DueDate("9999-12-15")?.adding(months: 1) == nil)
        #expect(DueDate("2026-11-24")?.adding(months: 12 * 7974) == nil)
        #expect(DueDate("0001-01-01")?.adding(days: -1) == nil)
        #expect(DueDate("0001-01-31")?.adding(months: -1) == nil)
        #expect(DueDate("9999-11-30")?.adding(months: 1)?.text == "9999-12-30")
    }

    @Test func aDayComesBeforeTheSameDayWithATime() {
        #expect(DueDate("2026-12-01")! < DueDate("2026-12-01T00:00")!)
        #expect(DueDate("2026-12-01T18:00")! < DueDate("2026-12-02")!)
    }
}

@Suite struct RepeatRuleTests {
    @Test func everySpellingReadsAndWritesItsCanonicalForm() {
        let spellings = ["daily": "daily", "weekly": "weekly", "monthly": "monthly", "yearly": "yearly", "weekdays": "weekdays",
                         "3d": "3d", "2w": "2w", "1m": "monthly", "every 3 days": "3d", "every 1 week": "weekly", "Every 2 Months": "2m"]
        for (text, canonical) in spellings { #expect(RepeatRule(text)?.text == canonical, "\(text)") }
        for text in ["sometimes", "0d", "3x", "every day", ""] { #expect(RepeatRule(text) == nil, "\(text)") }
    }

    @Test func theNextDueDateFollowsTheRule() {
        let friday = DueDate("2026-11-27T08:00")!
        #expect(RepeatRule("daily")!.next(after: friday)?.text == "2026-11-28T08:00")
        #expect(RepeatRule("weekdays")!.next(after: friday)?.text == "2026-11-30T08:00")
        #expect(RepeatRule("2w")!.next(after: friday)?.text == "2026-12-11T08:00")
        #expect(RepeatRule("monthly")!.next(after: DueDate("2026-01-31")!)?.text == "2026-02-28")
        #expect(RepeatRule("yearly")!.next(after: DueDate("2028-02-29")!)?.text == "2029-02-28")
    }

    @Test func aSeriesEndsAtTheLastDay() {
        for rule in ["daily", "weekdays", "weekly", "monthly", "yearly"] {
            #expect(RepeatRule(rule)!.next(after: DueDate.last) == nil, "\(rule)")
        }
        #expect(TodoItem(text: "x", due: DueDate.last, repeatRule: .every(1, .day)).nextInstance(today: DueDate("2026-11-24")!) == nil)
    }
}

@Suite struct QuickAddTests {
    let today = DueDate("2026-11-24")!  // a Tuesday

    @Test func theTodoTxtExampleSetsEveryField() {
        let q = QuickAdd("Call plumber +home @phone !high due:2026-11-30 repeat:weekly", today: today)
        #expect(q.text == "Call plumber")
        #expect(q.listName == "home")
        #expect(q.tags == ["phone"])
        #expect(q.priority == .high)
        #expect(q.due?.text == "2026-11-30")
        #expect(q.repeatRule == .every(1, .week))
        #expect(q.summary == "list home · due 2026-11-30 · !high · #phone · repeats weekly")
    }

    @Test func relativeDatesCountFromToday() {
        let cases = ["today": "2026-11-24", "tomorrow": "2026-11-25", "wed": "2026-11-25", "tue": "2026-12-01",
                     "monday": "2026-11-30", "+3d": "2026-11-27", "+2w": "2026-12-08", "+1m": "2026-12-24", "friT18:00": "2026-11-27T18:00",
                     "2026-12-01T09:15": "2026-12-01T09:15"]
        for (when, day) in cases { #expect(QuickAdd("x due:\(when)", today: today).due?.text == day, "\(when)") }
    }

    @Test func aRelativeDatePastTheLastDayIsNoDate() {
        #expect(QuickAdd("x due:+7974y", today: today).due == nil)
        #expect(QuickAdd("x due:+9999y", today: today).due == nil)
        #expect(QuickAdd("x due:tomorrow", today: DueDate.last).due == nil)
    }

    @Test func wordsThatOnlyLookLikeFieldsStayText() {
        let q = QuickAdd("mail a#b e-mail! due:someday repeat:often + # !urgent", today: today)
        #expect(q.text == "mail a#b e-mail! due:someday repeat:often + # !urgent")
        #expect(q.summary.isEmpty)
    }

    @Test func numberedPrioritiesAreHighToLow() {
        #expect(QuickAdd("x !1", today: today).priority == .high)
        #expect(QuickAdd("x !3", today: today).priority == .low)
    }

    @Test func rawKeepsEveryWord() {
        #expect(QuickAdd(raw: " Call +home @phone ").text == "Call +home @phone")
    }
}

/// The row an item is stored as.
@Suite struct TodoItemRowTests {
    @Test(arguments: [
        TodoItem(id: "full", text: "water the plants", complete: true, notes: "the big ones\nand the fern", due: DueDate("2026-12-01T08:30"),
                 priority: .high, tags: ["home", "garden"], listId: "list-1", repeatRule: .every(2, .week),
                 completedAt: "2026-11-25T10:00:00.000Z", series: "first"),
        TodoItem(id: "bare", text: ""),
    ])
    func theRowHoldsWhatItsCodableEncodingWrites(_ item: TodoItem) throws {
        #expect(item.object == (try item.item()))
    }

    @Test func theRowCarriesTheVersionSoPushesSendIfMatch() {
        var item = TodoItem(id: "v", text: "versioned")
        item.version = "abc"
        #expect(item.object["version"] == .string("abc"))
    }
}
