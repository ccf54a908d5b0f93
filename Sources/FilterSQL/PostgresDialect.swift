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
        INSERT INTO "__clocks" ("tbl", "last", "ns") VALUES ($1, $2, $3)
        ON CONFLICT ("ns", "tbl") DO UPDATE SET "last" = GREATEST("__clocks"."last" + 1, excluded."last")
        RETURNING "last"
        """
    }

    public func openForWriteSQL(_ quotedTable: String) -> String? { "LOCK TABLE \(quotedTable) IN ROW EXCLUSIVE MODE" }

    public var listTablesSQL: String {
        // pg_catalog rather than information_schema.tables: the same base tables, without the
        // per-row privilege checks that made it far slower (it runs under the schema lock).
        """
        SELECT c.relname::text FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname NOT LIKE '\\_\\_%'
        """
    }

    public var listColumnsSQL: String {
        // pg_catalog for speed, as above; format_type names text, double precision and boolean
        // exactly as information_schema's data_type does.
        """
        SELECT a.attname::text, format_type(a.atttypid, a.atttypmod) FROM pg_catalog.pg_attribute a
        WHERE a.attrelid = to_regclass(quote_ident(current_schema()) || '.' || quote_ident($1)) AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY a.attnum
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
