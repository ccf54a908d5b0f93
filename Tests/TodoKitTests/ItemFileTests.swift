import Foundation
import Testing
@testable import TodoKit
@testable import TodoModel

/// The file `E` hands to the person's editor, and reading it back.
@Suite struct ItemFileTests {
    let item = TodoItem(id: "x", text: "Call plumber", notes: "ask about\nthe boiler", due: DueDate("2026-12-01T18:00"), priority: .high,
                        tags: ["phone", "home"], repeatRule: .every(1, .week))

    @Test func anUnchangedFileReadsBackAsTheSameItem() throws {
        let file = ItemFile.render(item, listName: "Home")
        let (back, list) = try ItemFile.parse(file, original: item, today: nil)
        #expect(back == item)
        #expect(list == "Home")
    }

    @Test func fieldsChangeAndNotesSpanLines() throws {
        let file = "Text: Call the plumber\nComplete: no\nDue: tomorrow\nPriority:\nTags: #phone\nList:\nRepeat:\nNotes:\nline one\n\nline three\n\n"
        let (back, list) = try ItemFile.parse(file, original: item, today: DueDate("2026-11-24"))
        #expect(back.text == "Call the plumber" && back.due?.text == "2026-11-25" && back.priority == nil && back.tags == ["phone"])
        #expect(back.notes == "line one\n\nline three")
        #expect(back.repeatRule == nil && list == nil)
    }

    @Test func theParentLineNamesTheParentsIdAndEmptyMakesTheItemTopLevel() throws {
        var step = item
        step.parentId = "trip"
        let file = ItemFile.render(step, listName: nil)
        #expect(file.contains("\nParent: trip\n"))
        #expect(try ItemFile.parse(file, original: step, today: nil).item.parentId == "trip")
        let moved = try ItemFile.parse(file.replacingOccurrences(of: "Parent: trip", with: "Parent: "), original: step, today: nil).item
        #expect(moved.parentId == nil)
    }

    @Test func whatCannotBeReadNamesItsLine() {
        #expect(throws: ItemFile.ParseError(line: 2, reason: "“someday” is not a due date")) {
            try ItemFile.parse("Text: a\nDue: someday\n", original: item, today: nil)
        }
        #expect(throws: ItemFile.ParseError(line: 1, reason: "no field is called “colour”")) {
            try ItemFile.parse("Colour: red\nText: a\n", original: item, today: nil)
        }
        #expect(throws: ItemFile.ParseError(line: 1, reason: "the text cannot be blank")) {
            try ItemFile.parse("Text:\n", original: item, today: nil)
        }
    }

    @Test func anErrorHeadsTheFileItReopensWithReplacingAnOlderOne() {
        let once = ItemFile.withError("Text: a\n", "line 2: x")
        #expect(once == "# NOT SAVED: line 2: x. Fix it and save again, or save it unchanged to give up.\nText: a\n")
        #expect(ItemFile.withError(once, "line 1: y").hasPrefix("# NOT SAVED: line 1: y.\u{20}Fix"))
        #expect(ItemFile.withError(once, "line 1: y").components(separatedBy: "NOT SAVED").count == 2)
    }
}
