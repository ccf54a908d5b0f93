import Foundation
import TableProtocol
import Testing
@testable import TodoKit
@testable import TodoModel

/// The export and import formats, without a store.
@Suite struct TodoFileTests {
    @Test func jsonRoundTripsIdsTextsAndCompletion() throws {
        let items = [TodoItem(id: "a", text: "say \"hi\"", complete: true), TodoItem(id: "b", text: "ärger")].map { TodoFile.Entry(item: $0) }
        let parsed = try TodoFile.parse(Data(TodoFile.render(items, as: .json).utf8)).map(\.item)
        #expect(parsed.map(\.id) == ["a", "b"])
        #expect(parsed.map(\.text) == ["say \"hi\"", "ärger"])
        #expect(parsed.map(\.complete) == [true, false])
    }

    @Test(arguments: TodoFile.Format.allCases)
    func aFileWrittenInChunksIsTheWholeFileRendered(_ format: TodoFile.Format) throws {
        let entries = (0..<5).map { TodoFile.Entry(item: TodoItem(id: "i\($0)", text: "item \($0)", priority: .high), listName: $0 % 2 == 0 ? "Home" : nil) }
        let whole = format == .json
            ? JSONWriter.string(.array(entries.map { .object(ItemJSON.object($0.item, listName: $0.listName)) })) + "\n"
            : entries.map { TodoTxtLine.render($0) + "\n" }.joined()
        for split in 0...entries.count {
            var writer = TodoFile.Writer(format: format)
            var out: [UInt8] = []
            writer.write(Array(entries[..<split]), into: &out)
            writer.write(Array(entries[split...]), into: &out)
            writer.finish(into: &out)
            #expect(String(decoding: out, as: UTF8.self) == whole)
        }
        #expect(TodoFile.render([], as: .json) == "[]\n")
    }

    @Test(arguments: [#"[{"text":"a","due":"2026-01-01"},{"text":"a","notes":"second"}]"#, "Call mom\nCall mom\n"])
    func twoItemsOfTheSameTextAreTwoItemsWithIdsOfTheirOwnEveryTime(_ file: String) throws {
        let first = try TodoFile.parse(Data(file.utf8)).map(\.item.id)
        #expect(first.count == 2 && Set(first).count == 2)
        #expect(try TodoFile.parse(Data(file.utf8)).map(\.item.id) == first)
    }

    @Test func aFileGivingOneIdTwiceIsRefusedNamingBothItems() {
        #expect(throws: TodoFile.ParseError(line: 1, reason: #"item 2 has the id of item 1 ("SAME")"#)) {
            try TodoFile.parse(Data(#"[{"id":"same","text":"one"},{"id":"SAME","text":"two"}]"#.utf8))
        }
    }

    @Test(arguments: ["text", "notes", "list"])
    func aNULInAStringIsRefusedNotCutShort(_ field: String) {
        let object = field == "text" ? #"{"text":"a\u0000b"}"# : #"{"text":"a","\#(field)":"x\u0000y"}"#
        #expect(throws: TodoFile.ParseError.self) { try TodoFile.parse(Data("[\(object)]".utf8)) }
    }

    @Test func aJSONObjectIsNotReadAsATodoTxtLine() {
        #expect(throws: TodoFile.ParseError(line: 1, reason: "expected a JSON array of items")) { try TodoFile.parse(Data("{}".utf8)) }
    }

    @Test func textOfSpacesAndLineBreaksIsNoText() {
        #expect(throws: TodoFile.ParseError(line: 1, reason: #"item 1 has no "text" string"#)) {
            try TodoFile.parse(Data(#"[{"text":"\n \t\r"}]"#.utf8))
        }
    }

    @Test func completedAtIsADateAndTime() throws {
        #expect(throws: TodoFile.ParseError.self) { try TodoFile.parse(Data(#"[{"text":"a","completedAt":"garbage"}]"#.utf8)) }
        let parsed = try TodoFile.parse(Data(#"[{"text":"a","complete":true,"completedAt":"2026-11-24T10:00:00.000Z"}]"#.utf8))
        #expect(parsed.first?.item.completedAt == "2026-11-24T10:00:00.000Z")
    }

    @Test func aTodoTxtLineGetsTheSameIdEveryTime() throws {
        let first = try TodoFile.parse(Data("(A) call mum\n".utf8)).map(\.item)
        let second = try TodoFile.parse(Data("\n(A) call mum\r\n".utf8)).map(\.item)
        #expect(first.map(\.id) == second.map(\.id))
        #expect(first.first?.text == "call mum")
        #expect(first.first?.priority == .high)
    }

    @Test func aDoneMarkNeedsASpaceAndText() throws {
        #expect(try TodoFile.parse(Data("xylophone lesson\n".utf8)).first?.item.complete == false)
        #expect(throws: TodoFile.ParseError(line: 2, reason: "a line with no text")) { try TodoFile.parse(Data("ok\nx  (A) +home\n".utf8)) }
    }

    @Test func errorsNameTheirLine() {
        #expect(throws: TodoFile.ParseError(line: 3, reason: "item 2 has a \"complete\" that is not true or false")) {
            try TodoFile.parse(Data("[\n{\"text\": \"a\"},\n{\"text\": \"b\", \"complete\": \"yes\"}]".utf8))
        }
        #expect(throws: TodoFile.ParseError(line: 2, reason: "the file is not UTF-8 text")) {
            try TodoFile.parse(Data([0x61, 0x0A, 0xFF, 0xFE, 0x0A]))
        }
        #expect(throws: TodoFile.ParseError(line: 1, reason: "a control character (U+0007) in the text")) {
            try TodoFile.parse(Data("bell\u{7}\n".utf8))
        }
    }

    @Test func aTodoTxtLineSetsEveryFieldItNames() throws {
        let entry = try #require(try TodoFile.parse(Data("x 2026-11-20 (B) Call plumber 2026-11-01 +home @Phone due:2026-11-30 rec:2w key:value\n".utf8)).first)
        #expect(entry.listName == "home")
        #expect(entry.item.complete && entry.item.completedAt == "2026-11-20T00:00:00.000Z")
        #expect(entry.item.priority == .medium)
        #expect(entry.item.tags == ["phone"])
        #expect(entry.item.due?.text == "2026-11-30")
        #expect(entry.item.repeatRule == .every(2, .week))
        #expect(entry.item.text == "Call plumber 2026-11-01 key:value")
    }

    @Test func todoTxtLinesInTheCanonicalOrderComeBackUnchanged() throws {
        let lines = "(A) Call plumber +home @phone due:2026-11-30\nx 2026-11-20 pay rent rec:1m\nwater plants @home rec:1b\n(D) keep (D) as text\n"
        #expect(TodoFile.render(try TodoFile.parse(Data(lines.utf8)), as: .todotxt) == lines)
    }

    @Test func jsonCarriesEveryFieldBothWays() throws {
        let item = TodoItem(id: "a", text: "plumber", notes: "ask about\nthe boiler", due: DueDate("2026-12-01T18:00"), priority: .low,
                            tags: ["phone", "home"], repeatRule: .weekdays, completedAt: nil)
        let file = TodoFile.render([TodoFile.Entry(item: item, listName: "Home")], as: .json)
        #expect(file.contains("\"tags\":[\"home\",\"phone\"]"))
        let back = try #require(try TodoFile.parse(Data(file.utf8)).first)
        #expect(back == TodoFile.Entry(item: item, listName: "Home"))
    }

    @Test func aJSONFieldOfTheWrongKindNamesItsItemAndLine() {
        #expect(throws: TodoFile.ParseError(line: 2, reason: "item 1 has a \"due\" that is not YYYY-MM-DD or YYYY-MM-DDTHH:MM")) {
            try TodoFile.parse(Data("[\n{\"text\": \"a\", \"due\": \"soon\"}]".utf8))
        }
    }
}
