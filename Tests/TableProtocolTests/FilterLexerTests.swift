import Testing
@testable import TableProtocol

@Suite struct FilterLexerTests {
    @Test func tokensCarryZeroBasedPositions() throws {
        let tokens = try FilterLexer.tokenize("a eq (1,'x')")
        #expect(tokens.map(\.position) == [0, 2, 5, 6, 7, 8, 11, 12])
        #expect(tokens.last?.kind == .end)
    }

    @Test(arguments: FilterKeyword.allCases)
    func everyKeywordIsLexedAsAKeyword(_ keyword: FilterKeyword) throws {
        #expect(try FilterLexer.tokenize(keyword.rawValue).first?.kind == .keyword(keyword))
    }

    @Test(arguments: ["AND", "Eq", "NULL", "True", "Not"])
    func keywordsAreCaseSensitiveSoOtherCasesAreIdentifiers(_ word: String) throws {
        #expect(try FilterLexer.tokenize(word).first?.kind == .identifier(word))
    }

    @Test func identifiersMayContainDigitsAndUnderscores() throws {
        #expect(try FilterLexer.tokenize("_a1_B2").first?.kind == .identifier("_a1_B2"))
    }

    @Test func minusIsItsOwnTokenBeforeANumber() throws {
        let kinds = try FilterLexer.tokenize("-5").map(\.kind)
        #expect(kinds == [.minus, .number(5), .end])
    }

    @Test func stringsUnescapeDoubledQuotes() throws {
        #expect(try FilterLexer.tokenize("'it''s'").first?.kind == .string("it's"))
    }

    @Test func emptyStringAndLoneDoubledQuote() throws {
        #expect(try FilterLexer.tokenize("''").first?.kind == .string(""))
        #expect(try FilterLexer.tokenize("''''").first?.kind == .string("'"))
    }

    @Test func backslashIsAnOrdinaryCharacterInStrings() throws {
        #expect(try FilterLexer.tokenize(#"'a\b\'"#).first?.kind == .string(#"a\b\"#))
    }

    @Test func stringsMayContainDoubleQuotesAndUnicode() throws {
        #expect(try FilterLexer.tokenize("'say \"hé\" 🎉'").first?.kind == .string("say \"hé\" 🎉"))
    }

    @Test func doubleQuoteOutsideAStringIsAnError() {
        #expect(throws: FilterParseError("Double quotes are not allowed; strings use single quotes", at: 5)) {
            try FilterLexer.tokenize("a eq \"x\"")
        }
    }

    @Test func unterminatedStringReportsItsStart() {
        #expect(throws: FilterParseError("Unterminated string literal", at: 5)) { try FilterLexer.tokenize("a eq 'abc") }
        #expect(throws: FilterParseError("Unterminated string literal", at: 0)) { try FilterLexer.tokenize("'it''") }
    }

    @Test(arguments: ["%", "$", "[", ".5", "&", "*", "/", "é"])
    func unexpectedCharactersAreErrors(_ text: String) {
        #expect(throws: FilterParseError.self) { try FilterLexer.tokenize("a eq \(text)") }
    }

    @Test func unexpectedCharacterErrorNamesIt() {
        #expect(throws: FilterParseError("Unexpected character '%'", at: 2)) { try FilterLexer.tokenize("a %") }
    }

    @Test func invisibleUnexpectedCharacterIsShownAsCodePoint() {
        #expect(throws: FilterParseError("Unexpected character U+0000", at: 2)) { try FilterLexer.tokenize("a \u{0}") }
    }

    @Test func positionsCountUnicodeScalars() throws {
        let tokens = try FilterLexer.tokenize("'é🎉' eq x")
        #expect(tokens[1].position == 5)
    }

    @Test(arguments: ["\t", "\n", "\r\n", "  "])
    func anyWhitespaceSeparatesTokens(_ space: String) throws {
        #expect(try FilterLexer.tokenize("a\(space)eq\(space)1").count == 4)
    }

    @Test func unsupportedTypedLiteralIsAnError() {
        #expect(throws: FilterParseError("Unsupported literal type 'guid'", at: 0)) {
            try FilterLexer.tokenize("guid'0000'")
        }
    }

    @Test func datetimeWordWithoutQuoteIsAnIdentifier() throws {
        #expect(try FilterLexer.tokenize("datetime eq 1").first?.kind == .identifier("datetime"))
    }
}
