import Testing
@testable import TableProtocol

@Suite struct FilterLiteralTests {
    @Test func nullTrueAndFalseAreLiterals() {
        #expect(parsed("null") == nullLiteral)
        #expect(parsed("true") == boolean(true))
        #expect(parsed("false") == boolean(false))
    }

    @Test(arguments: [
        ("0", 0.0), ("42", 42), ("3.25", 3.25), ("1e3", 1000), ("1E3", 1000), ("1e+3", 1000), ("25e-1", 2.5),
        ("1.5e2", 150), ("0.001", 0.001), ("007", 7), ("123456789012345678901234567890", 1.2345678901234568e29),
    ])
    func numbersParseAsDoubles(_ text: String, _ value: Double) {
        #expect(parsed(text) == number(value))
    }

    @Test(arguments: ["L", "l", "M", "m", "F", "f", "D", "d"])
    func numericSuffixesAreDroppedAndGiveADouble(_ suffix: String) {
        #expect(parsed("12\(suffix)") == number(12))
        #expect(parsed("1.5\(suffix)") == number(1.5))
        #expect(parsed("2e2\(suffix)") == number(200))
    }

    @Test(arguments: ["1.", "1.e5", "1e", "1e+", "12x", "1LL", "1.5.2", "3abc"])
    func malformedNumbersAreErrorsAtTheirStart(_ text: String) {
        #expect(parseError("a eq \(text)")?.position == 5)
    }

    @Test func numberOutOfRangeIsAnError() {
        #expect(parseError("1e999") == FilterParseError("Numeric literal out of range", at: 0))
    }

    @Test func minusBeforeANumberFoldsIntoANegativeLiteral() {
        #expect(parsed("-5") == number(-5))
        #expect(parsed("- 2.5") == number(-2.5))
        #expect(parsed("a sub -5") == binary(.sub, member("a"), number(-5)))
    }

    @Test func negativeLiteralKeepsTheMinusPosition() throws {
        let e = try FilterParser.parse("x eq -5")
        guard case .binary(_, _, let right) = e.node else { Issue.record("not binary"); return }
        #expect(right.position == 5)
    }

    @Test func minusBeforeParenthesizedNumberIsANegation() {
        #expect(parsed("-(5)") == unary(.negate, number(5)))
    }

    @Test func stringLiteralsWithDoubledQuotesAndBackslashes() {
        #expect(parsed("'O''Brien'") == string("O'Brien"))
        #expect(parsed(#"'C:\temp\'"#) == string(#"C:\temp\"#))
    }

    @Test(arguments: [
        ("datetime'2026-01-02T03:04:05Z'", ticks(2026, 1, 2, 3, 4, 5)),
        ("datetime'2026-01-02T03:04:05.678Z'", ticks(2026, 1, 2, 3, 4, 5, fraction: 6_780_000)),
        ("datetime'2026-01-02T03:04:05.6Z'", ticks(2026, 1, 2, 3, 4, 5, fraction: 6_000_000)),
        ("datetime'2026-01-02T03:04:05.67Z'", ticks(2026, 1, 2, 3, 4, 5, fraction: 6_700_000)),
        ("datetime'2026-01-02T03:04:05'", ticks(2026, 1, 2, 3, 4, 5)),
        ("datetime'2026-01-02T03:04:05.678'", ticks(2026, 1, 2, 3, 4, 5, fraction: 6_780_000)),
        ("datetime'1969-12-31T23:59:59.999Z'", -10_000),
    ])
    func datetimeLiteralsAreUTCInstants(_ text: String, _ expected: Int64) {
        #expect(parsed(text) == dateTime(ticks: expected))
    }

    @Test(arguments: [
        ("datetimeoffset'2026-01-02T03:04:05Z'", ticks(2026, 1, 2, 3, 4, 5)),
        ("datetimeoffset'2026-01-02T03:04:05.1234567Z'", ticks(2026, 1, 2, 3, 4, 5, fraction: 1_234_567)),
        ("datetimeoffset'2026-01-02T03:04:05.6780000+00:00'", ticks(2026, 1, 2, 3, 4, 5, fraction: 6_780_000)),
        ("datetimeoffset'2026-01-02T05:34:05+02:30'", ticks(2026, 1, 2, 3, 4, 5)),
        ("datetimeoffset'2026-01-01T22:04:05-05:00'", ticks(2026, 1, 2, 3, 4, 5)),
        ("datetimeoffset'2026-01-01T22:04:05-0500'", ticks(2026, 1, 2, 3, 4, 5)),
        ("datetimeoffset'2026-01-02T04:04:05+01'", ticks(2026, 1, 2, 3, 4, 5)),
        ("datetimeoffset'2026-01-02T03:04Z'", ticks(2026, 1, 2, 3, 4)),
        ("datetimeoffset'2026-01-02'", ticks(2026, 1, 2)),
        ("datetimeoffset'2024-02-29T00:00:00z'", ticks(2024, 2, 29)),
    ])
    func datetimeoffsetLiteralsAreNormalisedToUTC(_ text: String, _ expected: Int64) {
        #expect(parsed(text) == dateTime(ticks: expected))
    }

    @Test(arguments: [
        "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-01-02T24:00:00Z", "2026-01-02T03:60:00Z",
        "2026-01-02T03:04:60Z", "2026-01-02T03:04:05.12345678Z", "2026-01-02T03:04:05.Z", "2026-1-2",
        "2026-01-02T03:04:05+25:00", "2026-01-02T03:04:05ZZ", "garbage", "", "2026-01-02T03:04:05 Z",
    ])
    func invalidDatetimeoffsetLiteralsAreErrorsAtThePrefix(_ body: String) {
        #expect(parseError("x gt datetimeoffset'\(body)'")?.position == 5)
    }

    @Test func unterminatedDatetimeIsAnError() {
        #expect(parseError("datetime'2026-01-02") == FilterParseError("Unterminated datetime literal", at: 0))
    }
}
