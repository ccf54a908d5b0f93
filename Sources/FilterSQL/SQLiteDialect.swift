/// SQL spelling for SQLite 3.35+ (numbered placeholders, RETURNING, math functions).
public struct SQLiteDialect: SQLDialect {
    /// The functions `tolower` and `toupper` call: SQLite's own by default, which map ASCII
    /// letters only ("ÉCOLE" stayed "École"); others the connection defines, to map all of Unicode.
    public var caseFunctions: (lower: String, upper: String)

    /// Creates the dialect.
    public init(caseFunctions: (lower: String, upper: String) = ("lower", "upper")) {
        self.caseFunctions = caseFunctions
    }

    public func placeholder(_ index: Int) -> String { "?\(index)" }

    /// Values beyond which `isOneOf` binds one JSON array rather than a placeholder a value.
    static let valuesListed = 16

    /// Many values as one bound JSON array that `json_each` reads: one bind and a short statement
    /// for thousands of ids, where a placeholder each made SQLite parse, and the caller bind,
    /// thousands (and a statement holds 32,766 at most). A few stay a plain list, whose size the
    /// planner knows. Beside the other alternatives of an `or`, the subject is tested row by
    /// row (`+`): SQLite, not knowing the array's size, otherwise read each alternative from its
    /// own index and sorted what they found together (a list's window of its open items read
    /// every one of them, and cold start took half as long again).
    public func isOneOf(_ subject: String, _ values: [SQLValue], binds: inout SQLBinds, besideOthers: Bool) -> String {
        guard values.count > Self.valuesListed, let array = JSONArrayText(values) else { return listedOneOf(subject, values, binds: &binds) }
        return "(\(besideOthers ? "+" : "")\(subject) IN (SELECT value FROM json_each(\(binds.bind(.text(array.text))))))"
    }

    public func columnDefinition(_ type: ColumnType) -> String {
        switch type {
        case .text: return "TEXT"
        case .number: return "REAL"
        case .boolean: return "BOOLEAN"
        }
    }

    public var advanceClockSQL: String {
        """
        INSERT INTO "__clocks" ("tbl", "last", "ns") VALUES (?1, ?2, ?3)
        ON CONFLICT ("ns", "tbl") DO UPDATE SET "last" = max("__clocks"."last" + 1, excluded."last")
        RETURNING "last"
        """
    }

    /// One connection writes at a time: no lock order to keep.
    public func openForWriteSQL(_ quotedTable: String) -> String? { nil }

    public var listColumnsSQL: String { "SELECT name, type FROM pragma_table_info(?1)" }

    public var listTablesSQL: String {
        #"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' AND name NOT LIKE '\_\_%' ESCAPE '\'"#
    }

    public func columnType(declared: String) -> ColumnType? {
        switch declared.uppercased() {
        case "TEXT": return .text
        case "REAL": return .number
        case "BOOLEAN": return .boolean
        default: return nil
        }
    }

    public func position(of needle: String, in haystack: String) -> String { "instr(\(haystack), \(needle))" }
    public func round(_ x: String) -> String { "round(\(x))" }
    public func remainder(_ a: String, _ b: String) -> String { "mod(\(a), NULLIF(\(b), 0))" }
    public func greatest(_ a: String, _ b: String) -> String { "max(\(a), \(b))" }

    public func digits(_ text: String, start: Int, length: Int) -> String {
        let part = "substr(\(text), \(start), \(length))"
        let pattern = String(repeating: "[0-9]", count: length)
        return "(CASE WHEN \(part) GLOB '\(pattern)' THEN CAST(\(part) AS INTEGER) END)"
    }

    public var realTypeName: String { "REAL" }
}
