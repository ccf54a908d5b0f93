import TableProtocol

/// SQL for the filter functions, identical in meaning on every dialect
/// (0-based `indexof`/`substring`, `length` keeping trailing spaces, date parts of ISO text).
struct FunctionSQL {
    let dialect: any SQLDialect

    /// A null the engine can type (PostgreSQL cannot resolve `length(NULL)`).
    func typedNull(_ kind: TypedSQL.Kind) -> String {
        kind == .number ? "CAST(NULL AS \(dialect.realTypeName))" : "CAST(NULL AS TEXT)"
    }

    func call(_ f: FilterFunction, _ args: [TypedSQL], _ positions: [Int], at position: Int) throws -> TypedSQL {
        func arg(_ i: Int, _ kind: TypedSQL.Kind) throws -> String {
            guard args[i].kind == kind || args[i].kind == .null else {
                throw FilterSQLError(
                    "function '\(f.rawValue)' expects a \(kind.rawValue) as argument \(i + 1), not a \(args[i].kind.rawValue) (at index \(positions[i]))")
            }
            return args[i].kind == .null ? typedNull(kind) : args[i].sql
        }
        func string(_ i: Int) throws -> String { try arg(i, .string) }
        func number(_ i: Int) throws -> String { try arg(i, .number) }
        func int(_ sql: String) -> String { "CAST(trunc(\(sql)) AS INTEGER)" }

        switch f {
        case .substringof:
            return .init(sql: "(\(dialect.position(of: try string(0), in: try string(1))) > 0)", kind: .boolean)
        case .startswith:
            let (s, p) = (try string(0), try string(1))
            return .init(sql: "(substr(\(s), 1, length(\(p))) = \(p))", kind: .boolean)
        case .endswith:
            let (s, p) = (try string(0), try string(1))
            return .init(sql: "(length(\(s)) >= length(\(p)) AND substr(\(s), length(\(s)) - length(\(p)) + 1) = \(p))", kind: .boolean)
        case .tolower: return .init(sql: "\(dialect.caseFunctions.lower)(\(try string(0)))", kind: .string)
        case .toupper: return .init(sql: "\(dialect.caseFunctions.upper)(\(try string(0)))", kind: .string)
        case .trim: return .init(sql: "trim(\(try string(0)))", kind: .string)
        case .length: return .init(sql: "length(\(try string(0)))", kind: .number)
        case .concat: return .init(sql: "(\(try string(0)) || \(try string(1)))", kind: .string)
        case .indexof:
            return .init(sql: "(\(dialect.position(of: try string(1), in: try string(0))) - 1)", kind: .number)
        case .substring:
            let start = dialect.greatest(int(try number(1)), "0") + " + 1"
            if args.count == 3 {
                let length = dialect.greatest(int(try number(2)), "0")
                return .init(sql: "substr(\(try string(0)), \(start), \(length))", kind: .string)
            }
            return .init(sql: "substr(\(try string(0)), \(start))", kind: .string)
        case .replace:
            return .init(sql: "replace(\(try string(0)), \(try string(1)), \(try string(2)))", kind: .string)
        case .year: return .init(sql: dialect.digits(try string(0), start: 1, length: 4), kind: .number)
        case .month: return .init(sql: dialect.digits(try string(0), start: 6, length: 2), kind: .number)
        case .day: return .init(sql: dialect.digits(try string(0), start: 9, length: 2), kind: .number)
        case .hour: return .init(sql: dialect.digits(try string(0), start: 12, length: 2), kind: .number)
        case .minute: return .init(sql: dialect.digits(try string(0), start: 15, length: 2), kind: .number)
        case .second: return .init(sql: dialect.digits(try string(0), start: 18, length: 2), kind: .number)
        case .floor: return .init(sql: "floor(\(try number(0)))", kind: .number)
        case .ceiling: return .init(sql: "ceil(\(try number(0)))", kind: .number)
        case .round: return .init(sql: dialect.round(try number(0)), kind: .number)
        }
    }
}
