import Foundation
import TableProtocol
import Testing
@testable import TodoModel

/// An item's reminders (#57): an offset before its due time, or a time; in every form an item takes.
@Suite struct ReminderTests {
    let today = DueDate("2026-11-24")!  // a Tuesday
    let utc = TimeZone(identifier: "UTC")!

    @Test func offsetsReadInTheirUnitsAndWriteInTheLargestWholeOne() {
        #expect(Reminder("-90m") == .before(minutes: 90))
        #expect(Reminder("-60m")?.text == "-1h")
        #expect(Reminder("-2d") == .before(minutes: 2_880))
        #expect(Reminder("-1w")?.text == "-1w")
        #expect(Reminder("-0m") == .before(minutes: 0))
    }

    @Test(arguments: ["-1x", "-h", "1h", "-99999w", "soon", ""])
    func whatIsNoReminderIsRefused(_ text: String) {
        #expect(Reminder(text) == nil)
    }

    @Test func aTimeIsTypedInDuesWordsAndADayAloneIsNineOClock() {
        #expect(Reminder(typed: "tomorrow T09:30", today: today) == .at(DueDate("2026-11-25T09:30")!))
        #expect(Reminder(typed: "fri", today: today) == .at(DueDate("2026-11-27T09:00")!))
    }

    @Test func quickAddTakesRemindWordsRepeatedly() {
        let quick = QuickAdd("Call the dentist due:friT10:00 remind:-1h remind:friT08:00", today: today)
        #expect(quick.text == "Call the dentist")
        #expect(quick.item.reminders == [.before(minutes: 60), .at(DueDate("2026-11-27T08:00")!)])
    }

    @Test func jsonCarriesRemindersAsASortedArrayBothWays() throws {
        let item = TodoItem(id: "a", text: "x", reminders: [.before(minutes: 30), .at(DueDate("2026-12-01T09:00")!)])
        let object = ItemJSON.object(item, listName: nil)
        #expect(object["reminders"] == .array([.string("-30m"), .string("2026-12-01T09:00")]))
        #expect(try ItemJSON.entry(object, stableId: { _ in "a" }).item.reminders == item.reminders)
    }

    @Test func theItemFileHasARemindersLine() throws {
        let item = TodoItem(id: "a", text: "x")
        let text = ItemFile.render(item, listName: nil).replacingOccurrences(of: "Reminders: \n", with: "Reminders: -1h 2026-12-01T09:00\n")
        #expect(try ItemFile.parse(text, original: item, today: today).item.reminders == [.before(minutes: 60), .at(DueDate("2026-12-01T09:00")!)])
    }

    @Test func remindersMergeAsASetOfWords() {
        #expect(TodoItem.mergeRules["reminders"] == .wordSet)
        let item = TodoItem(id: "a", text: "x", reminders: [.before(minutes: 60), .before(minutes: 30)])
        #expect(item.object["reminders"] == .string("-1h -30m"))
    }

    @Test func aRemindersTimeMovesWithItsRepeatingItemAndAnOffsetStays() throws {
        let item = TodoItem(id: "w", text: "water", due: DueDate("2026-11-24T18:00"), reminders: [.before(minutes: 15), .at(DueDate("2026-11-24T08:00")!)],
                            repeatRule: RepeatRule("weekly"))
        let next = try #require(item.nextInstance(today: today))
        #expect(next.reminders == [.before(minutes: 15), .at(DueDate("2026-12-01T08:00")!)])
    }

    // MARK: CalDAV

    private func read(_ lines: [String]) throws -> TaskResource {
        try VTODOMapping.read((["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:a", "SUMMARY:Call the dentist"] + lines + ["END:VTODO", "END:VCALENDAR"])
            .joined(separator: "\r\n"), zone: utc)
    }

    @Test func aDisplayAlarmBeforeTheDueTimeIsAReminder() throws {
        let task = try read(["DUE:20261127T100000", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:-PT1H", "DESCRIPTION:x", "END:VALARM"])
        #expect(task.item.reminders == [.before(minutes: 60)])
        #expect(task.kept.components.first?.components.isEmpty == true)
    }

    @Test func anAbsoluteTriggerIsAReminderAtItsTime() throws {
        let task = try read(["BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:20261127T080000Z", "END:VALARM"])
        #expect(task.item.reminders == [.at(DueDate("2026-11-27T08:00")!)])
    }

    @Test func anOffsetBeforeTheStartOfATaskWithoutADueDateIsAReminder() throws {
        let task = try read(["DTSTART:20261127T100000", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M", "END:VALARM"])
        #expect(task.item.reminders == [.before(minutes: 15)])
    }

    @Test func anAlarmOfAnotherKindStaysAsItCame() throws {
        let task = try read(["DUE:20261127T100000", "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER;RELATED=END:-PT1H", "END:VALARM"])
        #expect(task.item.reminders.isEmpty)
        #expect(task.kept.components.first?.components.map(\.name) == ["VALARM"])
    }

    @Test func remindersAreWrittenAsDisplayAlarmsAndReadBack() throws {
        let item = TodoItem(id: "a", text: "Call the dentist", due: DueDate("2026-11-27T10:00"),
                            reminders: [.before(minutes: 60), .at(DueDate("2026-11-27T08:00")!)])
        let text = VTODOMapping.write(TaskResource(item: item), updated: Date(), zone: utc)
        #expect(text.contains("TRIGGER;RELATED=END:-PT60M\r\n"))
        #expect(text.contains("TRIGGER;VALUE=DATE-TIME:20261127T080000Z\r\n"))
        #expect(text.contains("ACTION:DISPLAY\r\n"))
        #expect(try VTODOMapping.read(text, zone: utc).item.reminders == item.reminders)
    }

    @Test func anOffsetComesDueBeforeTheDueTimeAndADayAloneCountsFromNine() {
        let timed = TodoItem(text: "x", due: DueDate("2026-12-01T00:30"))
        #expect(Reminder.before(minutes: 60).time(on: timed) == DueDate("2026-11-30T23:30"))
        let day = TodoItem(text: "x", due: DueDate("2026-12-01"))
        #expect(Reminder.before(minutes: 30).time(on: day) == DueDate("2026-12-01T08:30"))
        #expect(Reminder.before(minutes: 30).time(on: TodoItem(text: "x")) == nil)
    }
}
