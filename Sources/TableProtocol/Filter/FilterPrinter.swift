/// Prints a `FilterExpression` as canonical OData text that parses back to an equal tree.
public enum FilterPrinter {
    /// Canonical text: minimal parentheses, lowercase keywords, `''`-escaped strings, UTC dates.
    public static func print(_ e: FilterExpression) -> String {
        var out = ""
        write(e, to: &out)
        return out
    }

    /// Canonical text for a literal value.
    public static func print(_ literal: FilterLiteral) -> String {
        switch literal {
        case .null: return "null"
        case .boolean(let b): return b ? "true" : "false"
        case .string(let s): return quote(s)
        case .number(let n): return format(n)
        case .dateTime(let d): return "datetimeoffset'\(d.iso8601String(fractionDigits: d.hasSubMillisecondPrecision ? 7 : 3))'"
        }
    }

    /// A number as the lexer reads it back: integral values below 2^53 without a decimal point.
    public static func format(_ n: Double) -> String {
        if n == 0 { return n.sign == .minus ? "-0" : "0" }
        if n.isNaN { return "(0 div 0)" }
        if n.isInfinite { return n < 0 ? "-1e999" : "1e999" }
        if n.rounded(.towardZero) == n && abs(n) < 9_007_199_254_740_992 { return String(Int64(n)) }
        let text = n.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    private static func quote(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        out.append("'")
        for c in s.unicodeScalars {
            out.append(c)
            if c == "'" { out.append(c) }
        }
        out.append("'")
        return String(out)
    }

    private static func write(_ e: FilterExpression, to out: inout String) {
        switch e.node {
        case .literal(let literal):
            out += print(literal)
        case .member(let name):
            out += name
        case .unary(let op, let operand):
            out += op == .not ? "not " : "-"
            // `- -x` and `- -5`, not `-(-x)`: to the parser a parenthesis is a level of nesting,
            // and a printed filter must parse within the depth its source did (found by fuzz-filter).
            if op == .negate, startsWithMinus(operand) { out += " " }
            write(operand, to: &out, parenthesized: needsParentheses(unary: op, operand: operand))
        case .binary(let op, let left, let right):
            write(left, to: &out, parenthesized: precedence(of: left) < op.precedence)
            out += " \(op.rawValue) "
            write(right, to: &out, parenthesized: precedence(of: right) <= op.precedence)
        case .call(let function, let args):
            out += function.rawValue
            out += "("
            for (i, arg) in args.enumerated() {
                if i > 0 { out += ", " }
                write(arg, to: &out)
            }
            out += ")"
        case .oneOf:
            write(spelled(e, wholly: true), to: &out)
        }
    }

    /// `e`, or for a `oneOf` the equalities it stands for: what is printed, and what the
    /// parentheses around it follow (for those, its first two values stand for all).
    private static func spelled(_ e: FilterExpression, wholly: Bool = false) -> FilterExpression {
        guard case .oneOf(let subject, let values) = e.node else { return e }
        return FilterExpression.equalities(subject, wholly ? values : Array(values.prefix(2)), at: e.position)
    }

    private static func write(_ e: FilterExpression, to out: inout String, parenthesized: Bool) {
        if parenthesized { out += "(" }
        write(e, to: &out)
        if parenthesized { out += ")" }
    }

    /// Binding strength of a node as an operand: binary operators by level, everything else tighter.
    private static func precedence(of e: FilterExpression) -> Int {
        if case .binary(let op, _, _) = spelled(e).node { return op.precedence }
        return 6
    }

    /// `-(5)` keeps a negated literal distinct from the literal `-5` (a minus before a number
    /// folds into it); a negative one needs none (`- -5`).
    private static func needsParentheses(unary op: UnaryOperator, operand: FilterExpression) -> Bool {
        switch spelled(operand).node {
        case .binary: return true
        case .literal(.number): return op == .negate && !startsWithMinus(operand)
        default: return false
        }
    }

    /// True when the operand's text starts with `-`.
    private static func startsWithMinus(_ operand: FilterExpression) -> Bool {
        switch spelled(operand).node {
        case .unary(.negate, _): return true
        case .literal(.number(let n)): return n.sign == .minus && !n.isNaN
        default: return false
        }
    }
}
