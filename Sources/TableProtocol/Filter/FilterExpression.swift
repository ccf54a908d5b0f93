/// A node of a parsed OData `$filter` expression, with the character offset it started at.
///
/// Equality ignores positions, so a canonical reprint parses back to an equal tree.
public struct FilterExpression: Sendable, Hashable, CustomStringConvertible {
    /// What this node is.
    public var node: Node
    /// Zero-based character offset of the node in the source text.
    public var position: Int

    /// Creates a node at a source position.
    public init(_ node: Node, at position: Int = 0) {
        self.node = node
        self.position = position
    }

    /// The kinds of filter node.
    public indirect enum Node: Sendable, Hashable {
        case literal(FilterLiteral)
        case member(String)
        case unary(UnaryOperator, FilterExpression)
        case binary(BinaryOperator, FilterExpression, FilterExpression)
        case call(FilterFunction, [FilterExpression])
        /// The subject equals one of the values (OData 4.01's `in`): one node for a list of
        /// thousands of ids, which a store translates and keys its caches by far faster than a
        /// tree of thousands of `eq`s. Printed as those `eq`s joined by `or` (`equalities`), in
        /// the words every server reads; the parser never makes one.
        case oneOf(FilterExpression, [FilterLiteral])
    }

    public static func == (lhs: FilterExpression, rhs: FilterExpression) -> Bool { lhs.node == rhs.node }
    public func hash(into hasher: inout Hasher) { hasher.combine(node) }

    /// Canonical OData text for this expression.
    public var description: String { FilterPrinter.print(self) }

    /// The same filter with every chain of one operator (`a and b and c …`, `a or b or c …`)
    /// joined as a balanced tree: `and` and `or` are associative, so it means the same, and a
    /// chain of thousands of terms nests only as deep as the logarithm of their count (SQLite's
    /// parser stopped a chain of 100, the recursive walks after this one a few thousand). Built
    /// without recursion over the tree; only the joins recurse, logarithmically.
    public func balancingChains() -> FilterExpression {
        enum Step { case visit(FilterExpression), build(FilterExpression, operands: Int) }
        var steps: [Step] = [.visit(self)]
        var built: [FilterExpression] = []
        while let step = steps.popLast() {
            switch step {
            case .visit(let expression):
                switch expression.node {
                case .literal, .member:
                    built.append(expression)
                case .unary(_, let operand):
                    steps += [.build(expression, operands: 1), .visit(operand)]
                case .binary(let op, _, _) where op == .and || op == .or:
                    let operands = expression.chainOperands(op)
                    steps.append(.build(expression, operands: operands.count))
                    steps += operands.reversed().map(Step.visit)
                case .binary(_, let lhs, let rhs):
                    steps += [.build(expression, operands: 2), .visit(rhs), .visit(lhs)]
                case .call(_, let arguments):
                    steps.append(.build(expression, operands: arguments.count))
                    steps += arguments.reversed().map(Step.visit)
                case .oneOf(let subject, _):
                    steps += [.build(expression, operands: 1), .visit(subject)]
                }
            case .build(let expression, let count):
                let operands = Array(built.suffix(count))
                built.removeLast(count)
                switch expression.node {
                case .literal, .member: built.append(expression)
                case .unary(let op, _): built.append(FilterExpression(.unary(op, operands[0]), at: expression.position))
                case .binary(let op, _, _) where op == .and || op == .or:
                    built.append(Self.balanced(operands[...], op, at: expression.position))
                case .binary(let op, _, _): built.append(FilterExpression(.binary(op, operands[0], operands[1]), at: expression.position))
                case .call(let function, _): built.append(FilterExpression(.call(function, operands), at: expression.position))
                case .oneOf(_, let values): built.append(FilterExpression(.oneOf(operands[0], values), at: expression.position))
                }
            }
        }
        return built[0]
    }

    /// The operands of the chain of `op` this node heads, in order (collected without recursion).
    private func chainOperands(_ op: BinaryOperator) -> [FilterExpression] {
        var operands: [FilterExpression] = []
        var pending = [self]
        while let next = pending.popLast() {
            if case .binary(op, let lhs, let rhs) = next.node { pending += [rhs, lhs] } else { operands.append(next) }
        }
        return operands
    }

    private static func balanced(_ operands: ArraySlice<FilterExpression>, _ op: BinaryOperator, at position: Int) -> FilterExpression {
        guard operands.count > 1 else { return operands.first! }
        let middle = operands.startIndex + operands.count / 2
        return FilterExpression(.binary(op, balanced(operands[..<middle], op, at: position), balanced(operands[middle...], op, at: position)),
                                at: position)
    }

    /// The tree's height: 1 for a leaf. Measured without recursion, so a tree too deep for the
    /// recursive walks (translation, printing) can be measured and refused first.
    public var depth: Int {
        var deepest = 0
        var pending: [(FilterExpression, Int)] = [(self, 1)]
        while let (expression, depth) = pending.popLast() {
            deepest = max(deepest, depth)
            switch expression.node {
            case .literal, .member: break
            case .unary(_, let operand): pending.append((operand, depth + 1))
            case .binary(_, let lhs, let rhs): pending += [(lhs, depth + 1), (rhs, depth + 1)]
            case .call(_, let arguments): pending += arguments.map { ($0, depth + 1) }
            // As deep as its printed form: a balanced tree of `or`s over `subject eq value`.
            case .oneOf(let subject, let values): pending.append((subject, depth + 1 + Self.levels(values.count)))
            }
        }
        return deepest
    }

    /// A `oneOf` node in the words every server reads: `subject eq value` for each value, joined
    /// by `or` as a balanced tree (`false` for no value).
    public static func equalities(_ subject: FilterExpression, _ values: [FilterLiteral], at position: Int = 0) -> FilterExpression {
        guard !values.isEmpty else { return FilterExpression(.literal(.boolean(false)), at: position) }
        let terms = values.map { FilterExpression(.binary(.eq, subject, FilterExpression(.literal($0), at: position)), at: position) }
        return balanced(terms[...], .or, at: position)
    }

    /// The levels of `or` a balanced tree over `count` terms has.
    private static func levels(_ count: Int) -> Int {
        count <= 1 ? 0 : Int.bitWidth - (count - 1).leadingZeroBitCount
    }
}

/// A literal value in a filter.
public enum FilterLiteral: Sendable, Hashable {
    case null
    case boolean(Bool)
    case string(String)
    /// Every number is a double in this protocol (`3 div 2` is `1.5`); suffixes are dropped.
    case number(Double)
    /// An instant from `datetime'…'` or `datetimeoffset'…'`, normalised to UTC.
    case dateTime(FilterDateTime)
}

/// An instant with 100-nanosecond precision (what `datetimeoffset` allows: 7 fraction digits).
public struct FilterDateTime: Sendable, Hashable, Comparable {
    /// Ticks of 100 ns since 1970-01-01T00:00:00Z (may be negative).
    public var ticksSinceEpoch: Int64

    /// Creates an instant from 100-ns ticks since the Unix epoch.
    public init(ticksSinceEpoch: Int64) { self.ticksSinceEpoch = ticksSinceEpoch }

    public static func < (lhs: FilterDateTime, rhs: FilterDateTime) -> Bool { lhs.ticksSinceEpoch < rhs.ticksSinceEpoch }
}

/// Unary operators.
public enum UnaryOperator: String, Sendable, Hashable, CaseIterable {
    case negate = "-"
    case not = "not"
}

/// Binary operators, by their OData keyword.
public enum BinaryOperator: String, Sendable, Hashable, CaseIterable {
    case or, and
    case eq, ne, gt, ge, lt, le
    case add, sub
    case mul, div, mod

    /// Binding strength: higher binds tighter.
    public var precedence: Int {
        switch self {
        case .or: return 1
        case .and: return 2
        case .eq, .ne, .gt, .ge, .lt, .le: return 3
        case .add, .sub: return 4
        case .mul, .div, .mod: return 5
        }
    }

    /// True for `eq ne gt ge lt le`.
    public var isComparison: Bool { precedence == 3 }
}

/// The functions of the filter language.
public enum FilterFunction: String, Sendable, Hashable, CaseIterable {
    case substringof, startswith, endswith, tolower, toupper, length, trim, concat
    case indexof, substring, replace
    case year, month, day, hour, minute, second
    case floor, ceiling, round

    /// Allowed argument counts.
    public var arity: ClosedRange<Int> {
        switch self {
        case .tolower, .toupper, .length, .trim, .year, .month, .day, .hour, .minute, .second,
             .floor, .ceiling, .round:
            return 1...1
        case .substringof, .startswith, .endswith, .concat, .indexof:
            return 2...2
        case .substring:
            return 2...3
        case .replace:
            return 3...3
        }
    }
}
