import TableProtocol

/// A typed filter built in Swift: `Field("complete") == false && Field("text").startsWith("a")`.
public struct QueryPredicate: Sendable, Equatable {
    /// The filter as the `TableProtocol` AST.
    public var expression: FilterExpression

    /// Wraps an AST.
    public init(_ expression: FilterExpression) { self.expression = expression }

    /// Both must hold.
    public static func && (lhs: QueryPredicate, rhs: QueryPredicate) -> QueryPredicate {
        QueryPredicate(.init(.binary(.and, lhs.expression, rhs.expression)))
    }

    /// Either must hold.
    public static func || (lhs: QueryPredicate, rhs: QueryPredicate) -> QueryPredicate {
        QueryPredicate(.init(.binary(.or, lhs.expression, rhs.expression)))
    }

    /// Must not hold.
    public static prefix func ! (operand: QueryPredicate) -> QueryPredicate {
        QueryPredicate(.init(.unary(.not, operand.expression)))
    }

    /// Every one must hold (nil for none). Joined as a balanced tree, not a chain: a filter
    /// nests only as deep as the count's logarithm. (The store balances a chain of `&&` too,
    /// before it reads; this builds the tree that way to begin with.)
    public static func all(_ predicates: [QueryPredicate]) -> QueryPredicate? {
        predicates.isEmpty ? nil : balanced(predicates[...], by: &&)
    }

    /// At least one must hold (nil for none), joined as a balanced tree as `all` joins them.
    public static func any(_ predicates: [QueryPredicate]) -> QueryPredicate? {
        predicates.isEmpty ? nil : balanced(predicates[...], by: ||)
    }

    private static func balanced(_ terms: ArraySlice<QueryPredicate>, by join: (QueryPredicate, QueryPredicate) -> QueryPredicate) -> QueryPredicate {
        guard terms.count > 1 else { return terms.first! }
        let middle = terms.startIndex + terms.count / 2
        return join(balanced(terms[..<middle], by: join), balanced(terms[middle...], by: join))
    }
}

/// A value in a typed filter: a field, a literal or a function of them.
public struct QueryValue: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral {
    /// The value as the `TableProtocol` AST.
    public var expression: FilterExpression

    /// Wraps an AST.
    public init(_ expression: FilterExpression) { self.expression = expression }
    public init(stringLiteral value: String) { expression = .init(.literal(.string(value))) }
    public init(integerLiteral value: Int) { expression = .init(.literal(.number(Double(value)))) }
    public init(floatLiteral value: Double) { expression = .init(.literal(.number(value))) }
    public init(booleanLiteral value: Bool) { expression = .init(.literal(.boolean(value))) }
    public init(nilLiteral: ()) { expression = .init(.literal(.null)) }

    /// A string value.
    public static func string(_ s: String) -> QueryValue { QueryValue(stringLiteral: s) }
    /// A number value.
    public static func number(_ n: Double) -> QueryValue { QueryValue(floatLiteral: n) }
    /// A boolean value.
    public static func bool(_ b: Bool) -> QueryValue { QueryValue(booleanLiteral: b) }

    private func call(_ f: FilterFunction, _ args: QueryValue...) -> FilterExpression {
        .init(.call(f, [expression] + args.map(\.expression)))
    }

    /// `tolower(x)`.
    public func lowercased() -> QueryValue { QueryValue(call(.tolower)) }
    /// `toupper(x)`.
    public func uppercased() -> QueryValue { QueryValue(call(.toupper)) }
    /// `length(x)`.
    public var length: QueryValue { QueryValue(call(.length)) }
    /// `startswith(x, prefix)`.
    public func startsWith(_ prefix: QueryValue) -> QueryPredicate { QueryPredicate(call(.startswith, prefix)) }
    /// `endswith(x, suffix)`.
    public func endsWith(_ suffix: QueryValue) -> QueryPredicate { QueryPredicate(call(.endswith, suffix)) }
    /// `substringof(needle, x)`.
    public func contains(_ needle: QueryValue) -> QueryPredicate {
        QueryPredicate(.init(.call(.substringof, [needle.expression, expression])))
    }

    /// Whether this value, words separated by spaces (a `.wordSet` column such as tags), holds
    /// `word`: the filter any server reads, answered locally from the table's word index when
    /// the column is one of its `wordSearchable`.
    public func hasWord(_ word: String) -> QueryPredicate {
        QueryPredicate(WordTest.expression(column: expression, word: word))
    }

    /// Equal to one of `values` (never, for none): one filter node however many there are, which
    /// the store reads as one SQL `IN` (FilterSQL) and a server as `eq`s joined by `or`.
    public func isOneOf(_ values: [String]) -> QueryPredicate {
        QueryPredicate(.init(.oneOf(expression, values.map(FilterLiteral.string))))
    }

    private static func compare(_ op: BinaryOperator, _ l: QueryValue, _ r: QueryValue) -> QueryPredicate {
        QueryPredicate(.init(.binary(op, l.expression, r.expression)))
    }
    public static func == (l: QueryValue, r: QueryValue) -> QueryPredicate { compare(.eq, l, r) }
    public static func != (l: QueryValue, r: QueryValue) -> QueryPredicate { compare(.ne, l, r) }
    public static func < (l: QueryValue, r: QueryValue) -> QueryPredicate { compare(.lt, l, r) }
    public static func <= (l: QueryValue, r: QueryValue) -> QueryPredicate { compare(.le, l, r) }
    public static func > (l: QueryValue, r: QueryValue) -> QueryPredicate { compare(.gt, l, r) }
    public static func >= (l: QueryValue, r: QueryValue) -> QueryPredicate { compare(.ge, l, r) }
}

/// A column in a typed filter.
public func Field(_ name: String) -> QueryValue { QueryValue(.init(.member(name))) }
