import PropertyBased
import Testing
@testable import TodoModel

/// The tags column's text holds its words: cut at whitespace, each word once.
@Suite struct TagsTextTests {
    /// Text of tag letters, ASCII whitespace, an ASCII separator control (U+001C) that is not
    /// whitespace, a next-line, a no-break space, an em space and a combining accent.
    static let text = Gen.element(of: ["a", "b", "home", " ", "  ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{1C}", "\u{85}", "\u{00A0}",
                                       "\u{2003}", "e\u{301}"])
        .compactMap { $0 }.array(of: 0...12).map { $0.joined() }

    @Test func theWordsAreThoseBetweenWhitespaceCharactersForAnyText() async {
        await propertyCheck(count: LawCases.count, input: Self.text) { text in
            #expect(TodoItem.tags(fromText: text) == Set(text.split(whereSeparator: \.isWhitespace).map(String.init)))
        }
    }

    @Test func asciiTextIsCutAtEachOfItsWhitespaceCharacters() {
        #expect(TodoItem.tags(fromText: "work\thome\nerrands  urgent\r\nlater\u{0B}x\u{0C}y work") == ["work", "home", "errands", "urgent", "later", "x", "y"])
    }

    @Test func noTextAndWhitespaceAloneHoldNoTags() {
        #expect(TodoItem.tags(fromText: nil).isEmpty)
        #expect(TodoItem.tags(fromText: " \t ").isEmpty)
    }
}
