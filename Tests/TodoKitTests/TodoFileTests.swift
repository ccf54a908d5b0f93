import Foundation
import Testing
@testable import TodoKit

/// The export and import formats, without a store.
@Suite struct TodoFileTests {
    @Test func jsonRoundTripsIdsTextsAndCompletion() throws {
        let items = [TodoItem(id: "a", text: "say \"hi\"", complete: true), TodoItem(id: "b", text: "ärger")]
        let parsed = try TodoFile.parse(Data(TodoFile.render(items, as: .json).utf8))
        #expect(parsed.map(\.id) == ["a", "b"])
        #expect(parsed.map(\.text) == ["say \"hi\"", "ärger"])
        #expect(parsed.map(\.complete) == [true, false])
    }

    @Test func aTodoTxtLineGetsTheSameIdEveryTime() throws {
        let first = try TodoFile.parse(Data("(A) call mum\n".utf8))
        let second = try TodoFile.parse(Data("\n(A) call mum\r\n".utf8))
        #expect(first.map(\.id) == second.map(\.id))
        #expect(first.first?.text == "(A) call mum")
    }

    @Test func aDoneMarkNeedsASpaceAndText() throws {
        #expect(try TodoFile.parse(Data("xylophone lesson\n".utf8)).first?.complete == false)
        #expect(throws: TodoFile.ParseError(line: 2, reason: "a done mark with no text")) { try TodoFile.parse(Data("ok\nx  \n".utf8)) }
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
}
