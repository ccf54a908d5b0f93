/// SQL spelling for PostgreSQL 12+; text columns use the "C" collation so ordering and
/// comparison are byte-wise, exactly as in SQLite.
public struct PostgresDialect: SQLDialect {
    /// Creates the dialect.
    public init() {}

    public func placeholder(_ index: Int) -> String { "$\(index)" }

    public func columnDefinition(_ type: ColumnType) -> String {
        switch type {
        case .text: return "text COLLATE \"C\""
        case .number: return "double precision"
        case .boolean: return "boolean"
        }
    }

    public var advanceClockSQL: String {
        """
        INSERT INTO "__sync_clock" ("tbl", "last") VALUES ($1, $2)
        ON CONFLICT ("tbl") DO UPDATE SET "last" = GREATEST("__sync_clock"."last" + 1, excluded."last")
        RETURNING "last"
        """
    }

    public var listTablesSQL: String {
        #"SELECT table_name::text FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT LIKE '\_\_%'"#
    }

    public var listColumnsSQL: String {
        """
        SELECT column_name::text, data_type::text FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position
        """
    }

    public func columnType(declared: String) -> ColumnType? {
        switch declared.lowercased() {
        case "text": return .text
        case "double precision": return .number
        case "boolean": return .boolean
        default: return nil
        }
    }

    public func position(of needle: String, in haystack: String) -> String { "strpos(\(haystack), \(needle))" }
    // round(double) in PostgreSQL rounds half to even; numeric rounds half away from zero.
    public func round(_ x: String) -> String { "CAST(round(CAST(\(x) AS numeric)) AS double precision)" }
    public func remainder(_ a: String, _ b: String) -> String {
        "CAST(mod(CAST(\(a) AS numeric), CAST(NULLIF(\(b), 0) AS numeric)) AS double precision)"
    }
    public func greatest(_ a: String, _ b: String) -> String { "GREATEST(\(a), \(b))" }

    public func digits(_ text: String, start: Int, length: Int) -> String {
        let part = "substr(\(text), \(start), \(length))"
        return "(CASE WHEN \(part) ~ '^[0-9]{\(length)}$' THEN CAST(\(part) AS integer) END)"
    }

    public var realTypeName: String { "double precision" }
}
