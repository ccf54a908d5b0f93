import Foundation
import TableProtocol
import Testing
@testable import TodoModel

/// An item's start date (#57): the day it starts to matter, in every form an item takes.
@Suite struct StartDateTests {
    let today = DueDate("2026-11-24")!  // a Tuesday

    @Test func quickAddReadsStartInDuesWords() {
        let quick = QuickAdd("Renew passport start:+3d due:2026-12-20", today: today)
        #expect(quick.text == "Renew passport")
        #expect(quick.item.start == DueDate("2026-11-27"))
        #expect(quick.summary.contains("starts 2026-11-27"))
    }

    @Test func aStartWordThatIsNoDateStaysText() {
        #expect(QuickAdd("x start:someday", today: today).text == "x start:someday")
    }

    @Test func jsonCarriesStartBothWays() throws {
        let item = TodoItem(id: "a", text: "Renew passport", start: DueDate("2027-03-01"))
        let object = ItemJSON.object(item, listName: nil)
        #expect(object["start"] == .string("2027-03-01"))
        let read = try ItemJSON.entry(object, stableId: { _ in "a" })
        #expect(read.item.start == DueDate("2027-03-01"))
    }

    @Test func aJSONStartThatIsNoDateIsRefusedNamingIt() {
        #expect(throws: ItemJSON.FieldError.self) { try ItemJSON.entry(["text": .string("x"), "start": .string("March")], stableId: { _ in "a" }) }
    }

    @Test func todoTxtWritesAndReadsTheThreshold() throws {
        let line = TodoTxtLine.render(TodoFile.Entry(item: TodoItem(id: "a", text: "Renew passport", start: DueDate("2027-03-01"))))
        #expect(line == "Renew passport t:2027-03-01")
        #expect(TodoTxtLine.parse(line, id: "a")?.item.start == DueDate("2027-03-01"))
    }

    @Test func theItemFileHasAStartLine() throws {
        let item = TodoItem(id: "a", text: "Renew passport")
        let text = ItemFile.render(item, listName: nil).replacingOccurrences(of: "Start: \n", with: "Start: 2027-03-01\n")
        #expect(try ItemFile.parse(text, original: item, today: today).item.start == DueDate("2027-03-01"))
    }

    @Test func dtstartIsReadAsTheStartAndNotKept() throws {
        let text = ["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:a", "SUMMARY:Renew passport", "DTSTART;VALUE=DATE:20270301", "END:VTODO", "END:VCALENDAR"]
            .joined(separator: "\r\n")
        let read = try VTODOMapping.read(text)
        #expect(read.item.start == DueDate("2027-03-01"))
        #expect(read.kept.components.first { $0.name == "VTODO" }?.property("DTSTART") == nil)
    }

    @Test func aStartIsWrittenAsDTSTART() {
        let date = VTODOMapping.write(TaskResource(item: TodoItem(id: "a", text: "x", start: DueDate("2027-03-01"))), updated: Date())
        #expect(date.contains("DTSTART;VALUE=DATE:20270301\r\n"))
        let time = VTODOMapping.write(TaskResource(item: TodoItem(id: "a", text: "x", start: DueDate("2027-03-01T09:30"))), updated: Date())
        #expect(time.contains("DTSTART:20270301T093000\r\n"))
    }

    @Test func aRepeatingItemsNextInstanceStartsAsLongBeforeItsDueDate() throws {
        let item = TodoItem(id: "rent", text: "Pay rent", due: DueDate("2026-12-01"), start: DueDate("2026-11-26"), repeatRule: RepeatRule("monthly"))
        let next = try #require(item.nextInstance(today: today))
        #expect(next.due == DueDate("2027-01-01"))
        #expect(next.start == DueDate("2026-12-27"))
    }

    @Test func startIsAColumnOfTheRow() throws {
        let item = TodoItem(id: "a", text: "x", start: DueDate("2027-03-01T09:30"))
        #expect(item.object["start"] == .string("2027-03-01T09:30"))
        let decoded = try JSONDecoder().decode(TodoItem.self, from: Data(JSONWriter.bytes(.object(item.object))))
        #expect(decoded.start == item.start)
    }
}
