/// Parses OData v3 `$filter` text into a `FilterExpression`.
public enum FilterParser {
    /// The longest member name accepted (`[A-Za-z_][A-Za-z0-9_]{0,127}`).
    public static let maxMemberNameLength = MemberName.maxLength
    /// The longest string accepted as the third argument of `replace`, exclusive.
    public static let replaceArgumentLimit = 100

    /// Parses a filter; depth (tree height, counting parentheses) above `maxDepth` is an error.
    public static func parse(_ text: String, maxDepth: Int = 64) throws(FilterParseError) -> FilterExpression {
        let tokens = try FilterLexer.tokenize(text)
        guard tokens.count > 1 else { throw FilterParseError("Empty filter expression", at: 0) }
        var parser = Parser(tokens: tokens, maxDepth: maxDepth)
        let result = try parser.expression()
        guard parser.current.kind == .end else {
            throw FilterParseError("')' or operator expected", at: parser.current.position)
        }
        return result.expr
    }
}

/// A parsed subtree with its height (parentheses count as a level).
private struct Parsed {
    var expr: FilterExpression
    var height: Int
}

private struct Parser {
    let tokens: [FilterToken]
    let maxDepth: Int
    var index = 0
    var nesting = 0
    var insideReplace = false

    init(tokens: [FilterToken], maxDepth: Int) {
        self.tokens = tokens
        self.maxDepth = maxDepth
    }

    var current: FilterToken { tokens[index] }

    mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    mutating func expression() throws(FilterParseError) -> Parsed { try binary(precedence: 1) }

    /// Left-associative binary operators of one precedence level, and everything tighter.
    mutating func binary(precedence: Int) throws(FilterParseError) -> Parsed {
        if precedence > 5 { return try unary() }
        var left = try binary(precedence: precedence + 1)
        while case .keyword(let keyword) = current.kind, let op = keyword.binaryOperator, op.precedence == precedence {
            let operatorPosition = current.position
            advance()
            let right = try binary(precedence: precedence + 1)
            let node = FilterExpression(.binary(op, left.expr, right.expr), at: left.expr.position)
            left = try checked(Parsed(expr: node, height: 1 + max(left.height, right.height)), at: operatorPosition)
        }
        return left
    }

    /// `-x`, `not x`; a minus directly before a number folds into a negative literal.
    mutating func unary() throws(FilterParseError) -> Parsed {
        let token = current
        let op: UnaryOperator
        switch token.kind {
        case .minus: op = .negate
        case .keyword(.not): op = .not
        default: return try primary()
        }
        advance()
        if op == .negate, case .number(let value) = current.kind {
            advance()
            return Parsed(expr: FilterExpression(.literal(.number(-value)), at: token.position), height: 1)
        }
        try enter(at: token.position)
        defer { nesting -= 1 }
        let operand = try unary()
        let node = FilterExpression(.unary(op, operand.expr), at: token.position)
        return try checked(Parsed(expr: node, height: operand.height + 1), at: token.position)
    }

    mutating func primary() throws(FilterParseError) -> Parsed {
        let token = current
        let literal: FilterLiteral
        switch token.kind {
        case .number(let value): literal = .number(value)
        case .string(let value): literal = .string(value)
        case .dateTime(let value): literal = .dateTime(value)
        case .keyword(.null): literal = .null
        case .keyword(.true): literal = .boolean(true)
        case .keyword(.false): literal = .boolean(false)
        case .openParen: return try parenthesized()
        case .identifier(let name):
            advance()
            if current.kind == .openParen { return try call(name, at: token.position) }
            guard name.unicodeScalars.count <= FilterParser.maxMemberNameLength else {
                throw FilterParseError("Member name is longer than \(FilterParser.maxMemberNameLength) characters", at: token.position)
            }
            return Parsed(expr: FilterExpression(.member(name), at: token.position), height: 1)
        default:
            throw FilterParseError("Expression expected", at: token.position)
        }
        advance()
        return Parsed(expr: FilterExpression(.literal(literal), at: token.position), height: 1)
    }

    mutating func parenthesized() throws(FilterParseError) -> Parsed {
        let open = current.position
        advance()
        try enter(at: open)
        defer { nesting -= 1 }
        let inner = try expression()
        guard current.kind == .closeParen else {
            throw FilterParseError("')' or operator expected", at: current.position)
        }
        advance()
        return try checked(Parsed(expr: inner.expr, height: inner.height + 1), at: open)
    }

    /// `name(args)`, current token is the `(`.
    mutating func call(_ name: String, at position: Int) throws(FilterParseError) -> Parsed {
        guard let function = FilterFunction(rawValue: name) else {
            throw FilterParseError("Unknown function '\(name.prefix(40))'", at: position)
        }
        if function == .replace && insideReplace {
            throw FilterParseError("Function 'replace' cannot be nested inside another 'replace'", at: position)
        }
        try enter(at: position)
        let wasInsideReplace = insideReplace
        insideReplace = insideReplace || function == .replace
        defer { nesting -= 1; insideReplace = wasInsideReplace }
        advance()
        var args: [Parsed] = []
        if current.kind != .closeParen {
            args.append(try expression())
            while current.kind == .comma {
                advance()
                args.append(try expression())
            }
        }
        guard current.kind == .closeParen else { throw FilterParseError("')' or ',' expected", at: current.position) }
        advance()
        guard function.arity.contains(args.count) else {
            throw FilterParseError("Function '\(name)' requires \(Self.describe(function.arity))", at: position)
        }
        if function == .replace { try checkReplacement(args[2].expr) }
        let node = FilterExpression(.call(function, args.map(\.expr)), at: position)
        return try checked(Parsed(expr: node, height: 1 + (args.map(\.height).max() ?? 0)), at: position)
    }

    func checkReplacement(_ argument: FilterExpression) throws(FilterParseError) {
        if case .literal(.string(let s)) = argument.node, s.count < FilterParser.replaceArgumentLimit { return }
        throw FilterParseError(
            "The third argument of 'replace' must be a string literal shorter than \(FilterParser.replaceArgumentLimit) characters",
            at: argument.position)
    }

    static func describe(_ arity: ClosedRange<Int>) -> String {
        if arity.count == 1 { return arity.lowerBound == 1 ? "1 argument" : "\(arity.lowerBound) arguments" }
        if arity.count == 2 { return "\(arity.lowerBound) or \(arity.upperBound) arguments" }
        return "\(arity.lowerBound) to \(arity.upperBound) arguments"
    }

    mutating func enter(at position: Int) throws(FilterParseError) {
        nesting += 1
        if nesting > maxDepth { throw FilterParseError("expression nested too deeply", at: position) }
    }

    func checked(_ parsed: Parsed, at position: Int) throws(FilterParseError) -> Parsed {
        if parsed.height > maxDepth { throw FilterParseError("expression nested too deeply", at: position) }
        return parsed
    }
}
