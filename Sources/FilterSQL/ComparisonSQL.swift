import TableProtocol

/// SQL for `eq ne gt ge lt le`, with the OData null rules, boolean folding and
/// millisecond-exact comparison of datetime literals against ISO text columns.
struct ComparisonSQL {
    let dialect: any SQLDialect

    func compare(_ op: BinaryOperator, _ l: TypedSQL, _ r: TypedSQL, at position: Int, binds: inout SQLBinds) throws -> TypedSQL {
        // `x eq null` / `x ne null` test for null; any other comparison with null never matches.
        if l.kind == .null || r.kind == .null {
            let other = l.kind == .null ? r : l
            switch op {
            case .eq: return other.kind == .null ? .alwaysTrue : TypedSQL(sql: "(\(other.sql) IS NULL)", kind: .boolean)
            case .ne: return other.kind == .null ? .alwaysFalse : TypedSQL(sql: "(\(other.sql) IS NOT NULL)", kind: .boolean)
            default: return .alwaysFalse
            }
        }
        guard l.kind == r.kind else {
            throw FilterSQLError(
                "cannot compare a \(l.kind.rawValue) with a \(r.kind.rawValue) (at index \(position))")
        }
        if l.kind == .boolean, op == .eq || op == .ne, let folded = fold(op, l, r) {
            return folded
        }
        if let t = r.dateTime, l.dateTime == nil, r.sql.isEmpty {
            return dateComparison(op, column: l.sql, literal: t, binds: &binds)
        }
        if let t = l.dateTime, r.dateTime == nil, l.sql.isEmpty {
            return dateComparison(op.flipped, column: r.sql, literal: t, binds: &binds)
        }
        return TypedSQL(sql: "(\(l.sql) \(op.sqlOperator) \(r.sql))", kind: .boolean)
    }

    /// `<bool> eq true` is the expression itself, `eq false` its negation (likewise for `ne`).
    private func fold(_ op: BinaryOperator, _ l: TypedSQL, _ r: TypedSQL) -> TypedSQL? {
        let (expression, literal): (TypedSQL, Bool)
        if let value = r.literalValue { (expression, literal) = (l, value) }
        else if let value = l.literalValue { (expression, literal) = (r, value) }
        else { return nil }
        if let both = expression.literalValue {
            return ((both == literal) == (op == .eq)) ? .alwaysTrue : .alwaysFalse
        }
        let wantsTrue = literal == (op == .eq)
        guard expression.sql.hasPrefix("(") else {
            // A bare column: an equality (null never matches either way), so an index on it serves.
            return TypedSQL(sql: "(\(expression.sql) = \(wantsTrue ? "TRUE" : "FALSE"))", kind: .boolean)
        }
        return wantsTrue ? TypedSQL(sql: expression.sql, kind: .boolean) : TypedSQL(sql: "(NOT \(expression.sql))", kind: .boolean)
    }

    /// Stored timestamps have millisecond precision; a literal with finer ticks is rounded
    /// in the direction that keeps the comparison exact.
    private func dateComparison(_ op: BinaryOperator, column: String, literal: FilterDateTime, binds: inout SQLBinds) -> TypedSQL {
        let ticksPerMs: Int64 = 10_000
        let floorMs = literal.ticksSinceEpoch >= 0 ? literal.ticksSinceEpoch / ticksPerMs
            : -((-literal.ticksSinceEpoch + ticksPerMs - 1) / ticksPerMs)
        let exact = floorMs * ticksPerMs == literal.ticksSinceEpoch
        func iso(_ ms: Int64) -> String { FilterDateTime(ticksSinceEpoch: ms * ticksPerMs).isoString }
        if exact {
            return TypedSQL(sql: "(\(column) \(op.sqlOperator) \(binds.bind(.text(iso(floorMs)))))", kind: .boolean)
        }
        switch op {
        case .eq: return .alwaysFalse
        case .ne: return TypedSQL(sql: "(\(column) IS NOT NULL)", kind: .boolean)
        case .gt, .le: return TypedSQL(sql: "(\(column) \(op.sqlOperator) \(binds.bind(.text(iso(floorMs)))))", kind: .boolean)
        default: return TypedSQL(sql: "(\(column) \(op.sqlOperator) \(binds.bind(.text(iso(floorMs + 1)))))", kind: .boolean)
        }
    }
}

extension BinaryOperator {
    /// The SQL spelling of a comparison operator.
    var sqlOperator: String {
        switch self {
        case .eq: return "="
        case .ne: return "<>"
        case .gt: return ">"
        case .ge: return ">="
        case .lt: return "<"
        case .le: return "<="
        default: return rawValue
        }
    }

    /// The operator with its operands swapped (`a lt b` ⇔ `b gt a`).
    var flipped: BinaryOperator {
        switch self {
        case .gt: return .lt
        case .ge: return .le
        case .lt: return .gt
        case .le: return .ge
        default: return self
        }
    }
}
