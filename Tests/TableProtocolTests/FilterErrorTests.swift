import Testing
@testable import TableProtocol

@Suite struct FilterErrorTests {
    @Test func errorDescriptionAppendsTheIndex() {
        #expect(FilterParseError("')' or operator expected", at: 5).description == "')' or operator expected (at index 5)")
    }

    @Test(arguments: ["", "   ", "\n\t"])
    func emptyFilterIsAnError(_ text: String) {
        #expect(parseError(text) == FilterParseError("Empty filter expression", at: 0))
    }

    @Test(arguments: [("a eq 1 b", 7), ("(a) b", 4), ("a eq 1)", 6), ("a b", 2), ("a AND b", 2), ("1 2", 2)])
    func trailingTokensAreAnOperatorExpectedError(_ text: String, _ position: Int) {
        #expect(parseError(text) == FilterParseError("')' or operator expected", at: position))
    }

    @Test func unclosedParenthesisReportsTheEnd() {
        #expect(parseError("(a eq 1") == FilterParseError("')' or operator expected", at: 7))
    }

    @Test(arguments: [("a eq", 4), ("a eq )", 5), ("(", 1), ("not", 3), ("-", 1), ("a and or b", 6), (",", 0), ("eq 1", 0)])
    func missingOperandIsAnExpressionExpectedError(_ text: String, _ position: Int) {
        #expect(parseError(text) == FilterParseError("Expression expected", at: position))
    }

    @Test func missingCommaBetweenArgumentsIsAnError() {
        #expect(parseError("concat(a b)") == FilterParseError("')' or ',' expected", at: 9))
    }

    @Test func trailingCommaInArgumentsIsAnError() {
        #expect(parseError("concat(a,)") == FilterParseError("Expression expected", at: 9))
    }

    @Test func unclosedFunctionCallIsAnError() {
        #expect(parseError("tolower(a") == FilterParseError("')' or ',' expected", at: 9))
    }

    @Test func lexerErrorsSurfaceThroughTheParser() {
        #expect(parseError("a eq 'x") == FilterParseError("Unterminated string literal", at: 5))
    }
}

@Suite struct FilterDepthTests {
    static func parenthesized(_ n: Int) -> String { String(repeating: "(", count: n) + "a" + String(repeating: ")", count: n) }

    @Test func parenthesesUpToTheLimitParse() {
        #expect(parsed(Self.parenthesized(63)) == member("a"))
    }

    @Test func parenthesesBeyondTheLimitAreAnError() {
        #expect(parseError(Self.parenthesized(64))?.message == "expression nested too deeply")
    }

    @Test func hugeParenthesisNestingFailsWithoutCrashing() {
        #expect(parseError(Self.parenthesized(100_000))?.message == "expression nested too deeply")
        #expect(parseError(String(repeating: "(", count: 100_000))?.message == "expression nested too deeply")
    }

    @Test func longUnaryChainsAreLimited() {
        #expect(parseError(String(repeating: "not ", count: 100_000) + "a")?.message == "expression nested too deeply")
        #expect(parseError(String(repeating: "-", count: 100_000) + "a")?.message == "expression nested too deeply")
    }

    @Test func nestedCallsAreLimited() {
        let text = String(repeating: "tolower(", count: 1000) + "a" + String(repeating: ")", count: 1000)
        #expect(parseError(text)?.message == "expression nested too deeply")
    }

    @Test func longOperatorChainsCountTowardsTheDepth() {
        let ok = (0..<64).map { "a\($0)" }.joined(separator: " or ")
        #expect(parsed(ok) != nil)
        let tooLong = (0..<65).map { "a\($0)" }.joined(separator: " or ")
        #expect(parseError(tooLong)?.message == "expression nested too deeply")
    }

    @Test func depthErrorPointsAtTheOperatorThatExceedsIt() {
        #expect(parseError("a or b or c", maxDepth: 2) == FilterParseError("expression nested too deeply", at: 7))
    }

    @Test func maxDepthIsConfigurable() throws {
        let chain = (0..<500).map { "a\($0)" }.joined(separator: " or ")
        #expect(throws: Never.self) { try FilterParser.parse(chain, maxDepth: 1000) }
        #expect(parseError("(a)", maxDepth: 1)?.message == "expression nested too deeply")
    }
}
