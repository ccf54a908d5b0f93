import TableProtocol

/// Translates a parsed `$filter` into a parameterised SQL condition for one dialect.
///
/// Every node is typed (string, number, boolean, null) so that both engines see the same
/// well-typed SQL and give the same rows; mixing types is a `FilterSQLError`, not an engine error.
public struct FilterSQLTranslator {
    /// Resolves a member name to a column; nil means "behaves as null" (dynamic schema).
    public typealias ColumnResolver = (String, Int) throws -> FilterColumn?

    let dialect: any SQLDialect
    let resolve: ColumnResolver
    public private(set) var binds: SQLBinds
    /// How many `or`s the node being translated is under (`oneOf` tells the dialect).
    private var underOr = 0

    /// Creates a translator that appends its binds to `binds`.
    public init(dialect: any SQLDialect, binds: SQLBinds, resolve: @escaping ColumnResolver) {
        self.dialect = dialect
        self.binds = binds
        self.resolve = resolve
    }

    /// SQL for the filter used as a WHERE condition.
    public mutating func condition(_ e: FilterExpression) throws -> String {
        try predicate(translate(e), at: e.position)
    }

    mutating func translate(_ e: FilterExpression) throws -> TypedSQL {
        switch e.node {
        case .literal(let literal):
            return literalSQL(literal)
        case .member(let name):
            guard let column = try resolve(name, e.position) else { return .null }
            let kind: TypedSQL.Kind = switch column.type {
            case .text: .string
            case .number: .number
            case .boolean: .boolean
            }
            return TypedSQL(sql: dialect.quote(column.name), kind: kind)
        case .unary(.not, let operand):
            let inner = try translate(operand)
            return TypedSQL(sql: "(NOT \(try predicate(inner, at: operand.position)))", kind: .boolean)
        case .unary(.negate, let operand):
            let inner = try expect(try translate(operand), .number, at: operand.position, what: "'-'")
            return TypedSQL(sql: "(-\(inner.sql))", kind: inner.kind)
        case .binary(let op, let lhs, let rhs):
            return try binary(op, lhs, rhs, at: e.position)
        case .call(let function, let args):
            var translated: [TypedSQL] = []
            for arg in args { translated.append(materialize(try translate(arg))) }
            return try FunctionSQL(dialect: dialect).call(function, translated, args.map(\.position), at: e.position)
        case .oneOf(let subject, let values):
            return try oneOf(subject, values, at: e.position)
        }
    }

    /// A text or number subject and literals of its kind: one `isOneOf` of the dialect. Anything
    /// else means what its equalities mean, and is translated as them.
    private mutating func oneOf(_ subject: FilterExpression, _ values: [FilterLiteral], at position: Int) throws -> TypedSQL {
        // Built only when needed: thousands of values are thousands of nodes.
        var spelled: FilterExpression { FilterExpression.equalities(subject, values, at: position) }
        guard !values.isEmpty else { return try translate(spelled) }
        let before = binds
        let translated = try translate(subject)
        var listed: [SQLValue] = []
        listed.reserveCapacity(values.count)
        for value in values {
            switch (value, translated.kind) {
            case (.string(let text), .string) where translated.dateTime == nil: listed.append(.text(text))
            case (.number(let number), .number): listed.append(.real(number))
            default:
                binds = before  // the subject is translated again, within the equalities
                return try translate(spelled)
            }
        }
        return TypedSQL(sql: dialect.isOneOf(translated.sql, listed, binds: &binds, besideOthers: underOr > 0), kind: .boolean)
    }

    private mutating func literalSQL(_ literal: FilterLiteral) -> TypedSQL {
        switch literal {
        case .null: return .null
        case .boolean(let b): return TypedSQL(sql: b ? "TRUE" : "FALSE", kind: .boolean, literalValue: b)
        case .string(let s): return TypedSQL(sql: binds.bind(.text(s)), kind: .string)
        case .number(let d): return TypedSQL(sql: binds.bind(.real(d)), kind: .number)
        case .dateTime(let t):
            // Bound only where used: a comparison with a column binds a millisecond-adjusted value.
            return TypedSQL(sql: "", kind: .string, dateTime: t)
        }
    }

    private mutating func binary(_ op: BinaryOperator, _ lhs: FilterExpression, _ rhs: FilterExpression, at position: Int) throws -> TypedSQL {
        switch op {
        case .and:
            let a = try predicate(translate(lhs), at: lhs.position)
            let b = try predicate(translate(rhs), at: rhs.position)
            return TypedSQL(sql: "(\(a) AND \(b))", kind: .boolean)
        case .or:
            // A chain's equalities of one column with a literal are one `IN`: SQLite answers
            // `a IN (…)` from an index on `a`, or by one lookup per row, where it tried `a = ? OR …`
            // term by term. The rest stay nested two by two, as SQLite's expression depth is bounded.
            var terms: [String] = []
            var alternatives: [(column: String, values: [SQLValue])] = []
            underOr += 1
            defer { underOr -= 1 }
            for operand in Self.chain(.or, lhs) + Self.chain(.or, rhs) {
                if let (column, value) = try equalityWithLiteral(operand) {
                    if let at = alternatives.firstIndex(where: { $0.column == column }) {
                        alternatives[at].values.append(value)
                    } else {
                        terms.append("\u{0}\(alternatives.count)")  // the column's IN goes where it first appears
                        alternatives.append((column, [value]))
                    }
                    continue
                }
                terms.append(try predicate(translate(operand), at: operand.position))
            }
            for (index, alternative) in alternatives.enumerated() {
                let values = alternative.values.map { binds.bind($0) }
                let sql = values.count == 1 ? "(\(alternative.column) = \(values[0]))" : "(\(alternative.column) IN (\(values.joined(separator: ", "))))"
                terms = terms.map { $0 == "\u{0}\(index)" ? sql : $0 }
            }
            return TypedSQL(sql: Self.nested(terms[...], joinedBy: "OR"), kind: .boolean)
        case .add, .sub, .mul, .div, .mod:
            let (l, r) = (try translate(lhs), try translate(rhs))
            let a = try expect(l, .number, at: lhs.position, what: "'\(op.rawValue)'").sql
            let b = try expect(r, .number, at: rhs.position, what: "'\(op.rawValue)'").sql
            let sql: String = switch op {
            case .add: "(\(a) + \(b))"
            case .sub: "(\(a) - \(b))"
            case .mul: "(\(a) * \(b))"
            // Numbers are doubles in OData: never integer division, null (not an error) for / 0.
            case .div: "(CAST(\(a) AS \(dialect.realTypeName)) / NULLIF(\(b), 0))"
            default: dialect.remainder(a, b)
            }
            return TypedSQL(sql: sql, kind: .number)
        case .eq, .ne, .gt, .ge, .lt, .le:
            let (l, r) = (try translate(lhs), try translate(rhs))
            // Only a date literal compared with something that is not a date literal stays unbound.
            let bothLiterals = l.dateTime != nil && r.dateTime != nil
            let (a, b) = bothLiterals || l.kind == .null || r.kind == .null ? (materialize(l), materialize(r)) : (l, r)
            return try ComparisonSQL(dialect: dialect).compare(op, a, b, at: position, binds: &binds)
        }
    }

    /// `column eq literal` (either way round) of a text or number column and a literal of its
    /// kind: the column's SQL and the value; nil for any other operand.
    private mutating func equalityWithLiteral(_ e: FilterExpression) throws -> (String, SQLValue)? {
        guard case .binary(.eq, let lhs, let rhs) = e.node else { return nil }
        let (member, literal): (FilterExpression, FilterLiteral)
        if case .literal(let value) = rhs.node, case .member = lhs.node { (member, literal) = (lhs, value) }
        else if case .literal(let value) = lhs.node, case .member = rhs.node { (member, literal) = (rhs, value) }
        else { return nil }
        let column = try translate(member)
        switch (literal, column.kind) {
        case (.string(let text), .string): return (column.sql, .text(text))
        case (.number(let number), .number): return (column.sql, .real(number))
        default: return nil
        }
    }

    /// `terms` joined two by two, so the SQL nests only as deep as the log of their count.
    private static func nested(_ terms: ArraySlice<String>, joinedBy join: String) -> String {
        if terms.count == 1 { return terms[terms.startIndex] }
        let middle = terms.startIndex + terms.count / 2
        return "(\(nested(terms[..<middle], joinedBy: join)) \(join) \(nested(terms[middle...], joinedBy: join)))"
    }

    /// The operands of a chain of `op` (`a or (b or c)` → a, b, c), in order.
    private static func chain(_ op: BinaryOperator, _ e: FilterExpression) -> [FilterExpression] {
        if case .binary(op, let lhs, let rhs) = e.node { return chain(op, lhs) + chain(op, rhs) }
        return [e]
    }

    /// Binds a datetime literal that has not been bound yet.
    mutating func materialize(_ t: TypedSQL) -> TypedSQL {
        guard let dateTime = t.dateTime, t.sql.isEmpty else { return t }
        var bound = t
        bound.sql = binds.bind(.text(dateTime.isoString))
        return bound
    }

    /// A boolean-valued SQL condition for a typed expression.
    func predicate(_ t: TypedSQL, at position: Int) throws -> String {
        switch t.kind {
        case .boolean:
            if let value = t.literalValue { return value ? TypedSQL.alwaysTrue.sql : TypedSQL.alwaysFalse.sql }
            return t.sql.hasPrefix("(") ? t.sql : "(\(t.sql) = TRUE)"
        case .null:
            return "(CAST(NULL AS BOOLEAN))"
        default:
            throw FilterSQLError("a boolean expression is expected, not a \(t.kind.rawValue) (at index \(position))")
        }
    }

    func expect(_ t: TypedSQL, _ kind: TypedSQL.Kind, at position: Int, what: String) throws -> TypedSQL {
        guard t.kind == kind || t.kind == .null else {
            throw FilterSQLError("\(what) expects a \(kind.rawValue), not a \(t.kind.rawValue) (at index \(position))")
        }
        return t.kind == .null ? TypedSQL(sql: FunctionSQL(dialect: dialect).typedNull(kind), kind: .null) : t
    }
}
