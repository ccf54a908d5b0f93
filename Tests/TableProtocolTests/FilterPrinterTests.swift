import Testing
@testable import TableProtocol

@Suite struct FilterPrinterTests {
    @Test(arguments: [
        ("a eq 1", "a eq 1"),
        ("(a eq 1)", "a eq 1"),
        ("a   and(b)", "a and b"),
        ("(a or b) and c", "(a or b) and c"),
        ("a or (b and c)", "a or b and c"),
        ("a sub (b sub c)", "a sub (b sub c)"),
        ("(a sub b) sub c", "a sub b sub c"),
        ("a mul (b add c)", "a mul (b add c)"),
        ("not (a eq b)", "not (a eq b)"),
        ("not(a)", "not a"),
        ("-(a add b)", "-(a add b)"),
        ("- 5", "-5"),
        ("-(5)", "-(5)"),
        ("- -a", "- -a"),
        ("- - 5", "- -5"),
        ("a sub -5", "a sub -5"),
        ("-5 add a", "-5 add a"),
        ("concat( a ,'b' )", "concat(a, 'b')"),
        ("substring(s,1,2)", "substring(s, 1, 2)"),
        ("'it''s'", "'it''s'"),
        (#"'a\b'"#, #"'a\b'"#),
    ])
    func printsCanonicalText(_ input: String, _ expected: String) throws {
        #expect(FilterPrinter.print(try FilterParser.parse(input)) == expected)
    }

    func oneOf(_ values: [FilterLiteral]) -> FilterExpression {
        FilterExpression(.oneOf(FilterExpression(.member("a")), values))
    }

    @Test func aOneOfPrintsAsItsEqualitiesJoinedByOrAndParsesBackToThem() throws {
        let node = oneOf([.string("x"), .string("y"), .number(3)])
        let text = FilterPrinter.print(node)
        #expect(text == "a eq 'x' or (a eq 'y' or a eq 3)")
        let parsed = try FilterParser.parse(text)
        #expect(parsed == FilterExpression.equalities(FilterExpression(.member("a")), [.string("x"), .string("y"), .number(3)]))
        #expect(parsed.depth == node.depth)
    }

    @Test func aOneOfIsParenthesizedAsTheOrItPrintsAs() {
        let node = oneOf([.string("x"), .string("y")])
        let b = FilterExpression(.member("b"))
        #expect(FilterPrinter.print(FilterExpression(.binary(.and, b, node))) == "b and (a eq 'x' or a eq 'y')")
        #expect(FilterPrinter.print(FilterExpression(.unary(.not, node))) == "not (a eq 'x' or a eq 'y')")
        #expect(FilterPrinter.print(FilterExpression(.binary(.and, b, oneOf([.string("x")])))) == "b and a eq 'x'")
        #expect(FilterPrinter.print(oneOf([])) == "false")
    }

    @Test func aOneOfOfThousandsNestsOnlyAsDeepAsTheLogarithmOfItsCount() throws {
        let node = oneOf((0..<4_000).map { .string("id-\($0)") })
        #expect(node.depth == 14)  // 12 levels of or, then eq, then a member or a literal
        #expect(try FilterParser.parse(FilterPrinter.print(node)).depth == node.depth)
    }

    @Test(arguments: [
        (0.0, "0"), (-0.0, "-0"), (42, "42"), (-7, "-7"), (1.5, "1.5"), (0.1, "0.1"), (1e20, "1e+20"),
        (-2.5e-7, "-2.5e-07"), (9_007_199_254_740_991, "9007199254740991"), (9_007_199_254_740_992, "9007199254740992"),
        (1e16, "1e+16"), (-1.5e300, "-1.5e+300"), (.leastNonzeroMagnitude, "5e-324"),
        (123.456, "123.456"),
    ])
    func numbersPrintInTheShortestReadableForm(_ value: Double, _ text: String) {
        #expect(FilterPrinter.format(value) == text)
    }

    @Test func suffixedNumbersPrintWithoutSuffix() throws {
        #expect(FilterPrinter.print(try FilterParser.parse("5L add 2.5M")) == "5 add 2.5")
    }

    @Test func keywordsAndLiteralsPrintLowercase() {
        #expect(FilterPrinter.print(binary(.and, boolean(true), binary(.ne, member("x"), nullLiteral))) == "true and x ne null")
    }

    @Test func millisecondDatesPrintWithThreeFractionDigits() throws {
        let e = try FilterParser.parse("datetime'2026-01-02T03:04:05Z'")
        #expect(FilterPrinter.print(e) == "datetimeoffset'2026-01-02T03:04:05.000Z'")
    }

    @Test func offsetDatesPrintInUTC() throws {
        let e = try FilterParser.parse("datetimeoffset'2026-01-02T05:04:05.678+02:00'")
        #expect(FilterPrinter.print(e) == "datetimeoffset'2026-01-02T03:04:05.678Z'")
    }

    @Test func subMillisecondDatesPrintWithSevenFractionDigits() throws {
        let e = try FilterParser.parse("datetimeoffset'2026-01-02T03:04:05.1234567Z'")
        #expect(FilterPrinter.print(e) == "datetimeoffset'2026-01-02T03:04:05.1234567Z'")
    }

    @Test func descriptionIsThePrintedText() throws {
        #expect(try FilterParser.parse("tolower( a )eq'x'").description == "tolower(a) eq 'x'")
    }

    @Test func negationsNestedToTheDepthLimitPrintAsTextThatParsesWithinIt() throws {
        // Found by fuzz-filter: `-(-(…a))` added a level per negation, past the limit.
        for operand in ["a", "5"] {
            let text = String(repeating: "-", count: 63) + operand
            let printed = FilterPrinter.print(try FilterParser.parse(text))
            #expect(try FilterParser.parse(printed) == FilterParser.parse(text), "\(printed)")
        }
    }
}
