import Testing
@testable import TableProtocol

@Suite struct FilterRoundTripTests {
    @Test(arguments: [
        "a eq 1", "a ne 'x' and b gt 2 or c lt 3", "not a", "not not (a or b)", "-a", "-(-a)", "- - 5", "-(5) add 2",
        "a sub -5", "a sub (-5)", "a mul -b", "(a add b) mul (c sub d) div e mod f", "a eq b eq c", "a eq (b eq c)",
        "x ge 1.5e300 and y le -1e-300", "n eq 0.30000000000000004", "n eq 123456789.125", "n eq 1e16", "n eq -0",
        "substringof('ab''c', tolower(title))", "startswith(a, 'x') or endswith(a, 'y')", "length(trim(s)) ge 3",
        "indexof(s, 'q') eq -1", "substring(s, 1) eq 'x'", "substring(s, 1, 2) eq 'x'", "replace(s, ' ', '') eq 'ab'",
        "year(d) eq 2026 and month(d) eq 1 and day(d) eq 2", "hour(d) add minute(d) add second(d) gt 0",
        "floor(p) eq ceiling(p) or round(p) eq 2", "concat(concat(a, b), c) eq toupper('ABC')",
        "updatedAt ge datetimeoffset'2026-01-02T03:04:05.678Z'", "d lt datetime'1969-07-20T20:17:40Z'",
        "d eq datetimeoffset'2026-01-02T03:04:05.0000001+14:00'", "done eq true or done eq null or x eq false",
        #"s eq 'C:\dir\'"#, "s eq ''''", "s eq 'é🎉 \"q\"'", "not (a eq b) and -(c) eq -(1)",
    ])
    func printedTextParsesBackToTheSameTree(_ text: String) throws {
        let tree = try FilterParser.parse(text)
        let printed = FilterPrinter.print(tree)
        #expect(try FilterParser.parse(printed) == tree, "printed as \(printed)")
        #expect(FilterPrinter.print(try FilterParser.parse(printed)) == printed)
    }

    @Test func randomTreesSurvivePrintAndParse() throws {
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<3000 {
            let tree = Self.randomTree(depth: 5, using: &rng)
            let printed = FilterPrinter.print(tree)
            let reparsed = try FilterParser.parse(printed)
            #expect(reparsed == tree, "printed as \(printed)")
            if reparsed != tree { return }
        }
    }

    static func randomTree(depth: Int, using rng: inout SeededGenerator) -> FilterExpression {
        if depth == 0 || Int.random(in: 0..<4, using: &rng) == 0 { return randomLeaf(using: &rng) }
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:
            return unary(UnaryOperator.allCases.randomElement(using: &rng)!, randomTree(depth: depth - 1, using: &rng))
        case 1:
            let f = FilterFunction.allCases.randomElement(using: &rng)!
            let count = Int.random(in: f.arity, using: &rng)
            var args = (0..<count).map { _ in randomTree(depth: depth - 1, using: &rng) }
            if f == .replace {
                args = args.map { removingReplace($0) }
                args[2] = string("r'\\")
            }
            return FilterExpression(.call(f, args))
        default:
            let op = BinaryOperator.allCases.randomElement(using: &rng)!
            return binary(op, randomTree(depth: depth - 1, using: &rng), randomTree(depth: depth - 1, using: &rng))
        }
    }

    static func randomLeaf(using rng: inout SeededGenerator) -> FilterExpression {
        switch Int.random(in: 0..<7, using: &rng) {
        case 0: return member(["a", "b_1", "Title", "_x"].randomElement(using: &rng)!)
        case 1: return number(Double(Int.random(in: -1000...1000, using: &rng)))
        case 2: return number(Double.random(in: -1e30...1e30, using: &rng))
        case 3: return number(Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF) * (Bool.random(using: &rng) ? 1 : -1))
        case 4: return string(["", "'", "''x", "a\\b", "é🎉", " sp "].randomElement(using: &rng)!)
        case 5: return dateTime(ticks: Int64.random(in: -600_000_000_000_000_000...2_000_000_000_000_000_000, using: &rng))
        default: return [nullLiteral, boolean(true), boolean(false)].randomElement(using: &rng)!
        }
    }

    /// Replaces nested `replace` calls (which the parser rejects) with their first argument.
    static func removingReplace(_ e: FilterExpression) -> FilterExpression {
        switch e.node {
        case .call(.replace, let args): return removingReplace(args[0])
        case .call(let f, let args): return FilterExpression(.call(f, args.map(removingReplace)))
        case .unary(let op, let x): return unary(op, removingReplace(x))
        case .binary(let op, let l, let r): return binary(op, removingReplace(l), removingReplace(r))
        default: return e
        }
    }
}
