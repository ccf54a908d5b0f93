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
    }

    public static func == (lhs: FilterExpression, rhs: FilterExpression) -> Bool { lhs.node == rhs.node }
    public func hash(into hasher: inout Hasher) { hasher.combine(node) }

    /// Canonical OData text for this expression.
    public var description: String { FilterPrinter.print(self) }
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
