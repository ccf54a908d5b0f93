import Testing
@testable import TableProtocol

@Suite struct FilterFunctionTests {
    static func arguments(_ count: Int) -> [FilterExpression] {
        (0..<count).map { i in i == 2 ? string("r") : member("a\(i)") }
    }

    static func text(_ f: FilterFunction, _ count: Int) -> String {
        "\(f.rawValue)(" + (0..<count).map { i in i == 2 ? "'r'" : "a\(i)" }.joined(separator: ", ") + ")"
    }

    @Test(arguments: FilterFunction.allCases)
    func everyFunctionParsesWithEachAllowedArgumentCount(_ f: FilterFunction) {
        for count in f.arity {
            #expect(parsed(Self.text(f, count)) == FilterExpression(.call(f, Self.arguments(count))))
        }
    }

    @Test(arguments: FilterFunction.allCases)
    func everyFunctionRejectsOneArgumentTooFewAndTooMany(_ f: FilterFunction) {
        for count in [f.arity.lowerBound - 1, f.arity.upperBound + 1] {
            #expect(parseError(Self.text(f, count))?.position == 0)
        }
    }

    @Test func concatWithThreeArgumentsIsAnErrorNamingTheFunction() {
        #expect(parseError("concat(a, b, c)") == FilterParseError("Function 'concat' requires 2 arguments", at: 0))
    }

    @Test func oneArgumentFunctionErrorUsesTheSingular() {
        #expect(parseError("x eq tolower()") == FilterParseError("Function 'tolower' requires 1 argument", at: 5))
    }

    @Test func substringWithOneArgumentSaysTwoOrThree() {
        #expect(parseError("substring(s)") == FilterParseError("Function 'substring' requires 2 or 3 arguments", at: 0))
    }

    @Test func replaceRequiresThreeArguments() {
        #expect(parseError("replace(s, 'a')") == FilterParseError("Function 'replace' requires 3 arguments", at: 0))
    }

    @Test func unknownFunctionIsAnErrorNamingIt() {
        #expect(parseError("a eq frobnicate(b)") == FilterParseError("Unknown function 'frobnicate'", at: 5))
    }

    @Test func functionNamesAreCaseSensitive() {
        #expect(parseError("ToLower(a)") == FilterParseError("Unknown function 'ToLower'", at: 0))
    }

    @Test func substringofTakesTheNeedleFirst() {
        #expect(parsed("substringof('x', title)") == call(.substringof, string("x"), member("title")))
    }

    @Test func functionArgumentsAreFullExpressions() {
        #expect(parsed("concat(a add 1, tolower(b))")
            == call(.concat, binary(.add, member("a"), number(1)), call(.tolower, member("b"))))
    }

    @Test func whitespaceBetweenNameAndParenthesisIsAllowed() {
        #expect(parsed("length (title) gt 3") == binary(.gt, call(.length, member("title")), number(3)))
    }

    @Test func replaceThirdArgumentMustBeAStringLiteral() {
        #expect(parseError("replace(a, 'x', b)") == FilterParseError(
            "The third argument of 'replace' must be a string literal shorter than 100 characters", at: 16))
    }

    @Test func replaceThirdArgumentOf99CharactersIsAccepted() {
        let s = String(repeating: "z", count: 99)
        #expect(parsed("replace(a, 'x', '\(s)')") == call(.replace, member("a"), string("x"), string(s)))
    }

    @Test func replaceThirdArgumentOf100CharactersIsAnError() {
        let s = String(repeating: "z", count: 100)
        #expect(parseError("replace(a, 'x', '\(s)')")?.position == 16)
    }

    @Test(arguments: [
        ("replace(replace(a, 'b', 'c'), 'd', 'e')", 8),
        ("replace(a, tolower(replace(b, 'c', 'd')), 'e')", 19),
    ])
    func replaceInsideReplaceIsAnError(_ text: String, _ position: Int) {
        #expect(parseError(text) == FilterParseError("Function 'replace' cannot be nested inside another 'replace'", at: position))
    }

    @Test func replaceMayAppearTwiceSideBySide() {
        #expect(parsed("concat(replace(a, 'b', 'c'), replace(d, 'e', 'f'))") != nil)
    }
}
