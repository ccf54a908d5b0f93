import Foundation
import Testing
import TodoModel

/// Behaviours the fuzz targets found missing (their inputs are in Fuzz/Regressions too).
@Suite struct FoundByFuzzingTests {
    @Test func anItemFileSavedWithCRLFLineEndsReadsLineByLine() throws {
        let read = try ItemFile.parse("Text: buy milk\r\nPriority: high\r\n", original: TodoItem(id: "a", text: "x"), today: nil)
        #expect(read.item.text == "buy milk")
        #expect(read.item.priority == .high)
    }

    @Test func aTodoTxtLinesLastDueAndRecurrenceWinAndNeverStayInTheText() throws {
        let entry = try #require(try TodoFile.parse(Data("pay rent due:2026-12-01 rec:1m due:2026-12-02 rec:+2w\n".utf8)).first)
        #expect(entry.item.text == "pay rent")
        #expect(entry.item.due == DueDate("2026-12-02"))
        #expect(entry.item.repeatRule == RepeatRule("2w"))
    }

    @Test func aTodoTxtFileWhoseFirstLineOpensWithABracketIsTodoTxt() throws {
        let entries = try TodoFile.parse(Data("[draft] write the report\n{idea} garden\n".utf8))
        #expect(entries.map(\.item.text) == ["[draft] write the report", "{idea} garden"])
    }

    @Test func aBareCarriageReturnInATextValueIsLeftOutOnReadAsOnWrite() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:milk\reggs\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        #expect(try VTODOMapping.read(text).item.text == "milkeggs")
    }

    @Test func quickAddKeepsAWordThatStartsWithACombiningMark() {
        let read = QuickAdd("a \u{369}b", today: DueDate("2026-11-26")!)
        #expect(read.text == "a \u{369}b")
        #expect(QuickAdd(read.text, today: DueDate("2026-11-26")!).text == read.text)
    }

    @Test func aCompletionStampBeforeTheGregorianReformReadsBackOnTheSameDay() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:a\r\nCOMPLETED:00261118T110640Z\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let read = try VTODOMapping.read(text)
        let again = try VTODOMapping.read(VTODOMapping.write(read, updated: Date(timeIntervalSince1970: 0)))
        #expect(again.item.completedAt == read.item.completedAt)
        #expect(VTODOMapping.write(read, updated: Date(timeIntervalSince1970: 0)).contains("COMPLETED:00261118T110640Z"))
    }
}
