import Testing
@testable import TableProtocol

@Suite struct FilterOperatorTests {
    @Test(arguments: BinaryOperator.allCases)
    func everyBinaryOperatorParses(_ op: BinaryOperator) {
        #expect(parsed("a \(op.rawValue) b") == binary(op, member("a"), member("b")))
    }

    @Test(arguments: BinaryOperator.allCases)
    func everyBinaryOperatorIsLeftAssociative(_ op: BinaryOperator) {
        let expected = binary(op, binary(op, member("a"), member("b")), member("c"))
        #expect(parsed("a \(op.rawValue) b \(op.rawValue) c") == expected)
    }

    /// Pairs (looser, tighter) across adjacent precedence levels.
    static let levelPairs: [(BinaryOperator, BinaryOperator)] = [
        (.or, .and), (.and, .eq), (.and, .le), (.ne, .add), (.gt, .sub), (.add, .mul), (.sub, .div), (.add, .mod),
        (.or, .mul), (.or, .eq),
    ]

    @Test(arguments: levelPairs)
    func tighterOperatorOnTheRightBindsFirst(_ loose: BinaryOperator, _ tight: BinaryOperator) {
        let expected = binary(loose, member("a"), binary(tight, member("b"), member("c")))
        #expect(parsed("a \(loose.rawValue) b \(tight.rawValue) c") == expected)
    }

    @Test(arguments: levelPairs)
    func tighterOperatorOnTheLeftBindsFirst(_ loose: BinaryOperator, _ tight: BinaryOperator) {
        let expected = binary(loose, binary(tight, member("a"), member("b")), member("c"))
        #expect(parsed("a \(tight.rawValue) b \(loose.rawValue) c") == expected)
    }

    @Test func operatorsOfTheSameLevelMixLeftToRight() {
        #expect(parsed("a add b sub c") == binary(.sub, binary(.add, member("a"), member("b")), member("c")))
        #expect(parsed("a div b mul c mod d")
            == binary(.mod, binary(.mul, binary(.div, member("a"), member("b")), member("c")), member("d")))
        #expect(parsed("a eq b ne c") == binary(.ne, binary(.eq, member("a"), member("b")), member("c")))
    }

    @Test func parenthesesOverridePrecedence() {
        #expect(parsed("(a or b) and c") == binary(.and, binary(.or, member("a"), member("b")), member("c")))
        #expect(parsed("a sub (b sub c)") == binary(.sub, member("a"), binary(.sub, member("b"), member("c"))))
    }

    @Test func redundantParenthesesDisappearFromTheTree() {
        #expect(parsed("((a)) eq (((1)))") == binary(.eq, member("a"), number(1)))
    }

    @Test func notBindsTighterThanComparison() {
        #expect(parsed("not a eq b") == binary(.eq, unary(.not, member("a")), member("b")))
        #expect(parsed("not (a eq b)") == unary(.not, binary(.eq, member("a"), member("b"))))
    }

    @Test func unaryMinusBindsTighterThanMultiplication() {
        #expect(parsed("-a mul b") == binary(.mul, unary(.negate, member("a")), member("b")))
    }

    @Test func unaryOperatorsNest() {
        #expect(parsed("not not a") == unary(.not, unary(.not, member("a"))))
        #expect(parsed("- -a") == unary(.negate, unary(.negate, member("a"))))
        #expect(parsed("--5") == unary(.negate, number(-5)))
        #expect(parsed("not -a") == unary(.not, unary(.negate, member("a"))))
    }

    @Test func notWithoutSpaceBeforeParenthesis() {
        #expect(parsed("not(done)") == unary(.not, member("done")))
    }

    @Test func binaryNodeStartsAtItsLeftOperandAndUnaryAtItsOperator() throws {
        let e = try FilterParser.parse("  a eq not b")
        #expect(e.position == 2)
        guard case .binary(_, _, let right) = e.node else { Issue.record("not binary"); return }
        #expect(right.position == 7)
    }

    @Test func bareMemberAndLiteralAreWholeExpressions() {
        #expect(parsed("done") == member("done"))
        #expect(parsed("  'x'  ") == string("x"))
    }

    @Test func memberNamedLikeAFunctionIsAMemberWithoutParentheses() {
        #expect(parsed("year eq 2026") == binary(.eq, member("year"), number(2026)))
    }

    @Test func memberNameOf128CharactersIsAccepted() {
        let name = "a" + String(repeating: "b", count: 127)
        #expect(parsed(name) == member(name))
    }

    @Test func memberNameOf129CharactersIsAnError() {
        let name = "a" + String(repeating: "b", count: 128)
        #expect(parseError("x eq \(name)") == FilterParseError("Member name is longer than 128 characters", at: 5))
    }
}
