/// How SQL is spelled for one database engine; everything else about storage is shared.
public protocol SQLDialect: Sendable {
    /// The n-th (1-based) bind placeholder; numbered so a placeholder may be reused.
    func placeholder(_ index: Int) -> String
    /// The column type used to store values of a `ColumnType`.
    func columnDefinition(_ type: ColumnType) -> String
    /// SQL that sets a namespace's clock of a table to max(last + 1, now) and returns it as one
    /// integer. Binds: 1 = table name, 2 = now in milliseconds, 3 = the namespace (the owner).
    /// Must lock the clock row until commit; other namespaces' rows are not touched.
    var advanceClockSQL: String { get }
    /// SQL that a write transaction runs before `advanceClockSQL` to open the (quoted) table for
    /// writing, or nil when the engine has one writer at a time. Every writer then takes the
    /// table before the clock row, in that one order: a single-statement write opens the table
    /// as it starts, so a writer holding the clock row while it waits for the table could deadlock.
    func openForWriteSQL(_ quotedTable: String) -> String?
    /// SQL that lists a table's columns as (name, declared type); bind 1 = table name.
    var listColumnsSQL: String { get }
    /// SQL that lists the names of the tables clients made (none starting with `__`).
    var listTablesSQL: String { get }
    /// Maps a declared type back to a column type.
    func columnType(declared: String) -> ColumnType?
    /// `instr`-style position (1-based, 0 when absent) of `needle` in `haystack`.
    func position(of needle: String, in haystack: String) -> String
    /// Rounds half away from zero.
    func round(_ x: String) -> String
    /// Floating point remainder with the sign of the dividend; null for a zero divisor.
    func remainder(_ a: String, _ b: String) -> String
    /// The larger of two values.
    func greatest(_ a: String, _ b: String) -> String
    /// The integer made of the `length` characters at 1-based `start` of `text`, or null when
    /// those are not all digits.
    func digits(_ text: String, start: Int, length: Int) -> String
    /// The type name for a double in CAST.
    var realTypeName: String { get }
    /// The SQL functions `tolower` and `toupper` call.
    var caseFunctions: (lower: String, upper: String) { get }
    /// A condition that `subject` equals one of `values` (all of one kind, text or real; at
    /// least one), its values added to `binds`. `besideOthers`: it is one of the alternatives
    /// of an `or`.
    func isOneOf(_ subject: String, _ values: [SQLValue], binds: inout SQLBinds, besideOthers: Bool) -> String
}

extension SQLDialect {
    /// The engine's own `lower` and `upper`.
    public var caseFunctions: (lower: String, upper: String) { ("lower", "upper") }

    /// `subject IN (…)`, a placeholder a value.
    public func isOneOf(_ subject: String, _ values: [SQLValue], binds: inout SQLBinds, besideOthers: Bool) -> String {
        listedOneOf(subject, values, binds: &binds)
    }

    /// `subject IN (…)` (`=` for one value), a placeholder a value.
    public func listedOneOf(_ subject: String, _ values: [SQLValue], binds: inout SQLBinds) -> String {
        let placeholders = values.map { binds.bind($0) }
        return placeholders.count == 1 ? "(\(subject) = \(placeholders[0]))" : "(\(subject) IN (\(placeholders.joined(separator: ", "))))"
    }

    /// A quoted identifier; names are validated before they get here, quotes are doubled anyway.
    public func quote(_ identifier: String) -> String { SQLIdentifier.quote(identifier) }
}

/// Identifiers as every supported engine quotes them (standard SQL's double quotes).
public enum SQLIdentifier {
    /// A quoted identifier; names are validated before they get here, quotes are doubled anyway.
    public static func quote(_ identifier: String) -> String {
        // Identifiers are checked names and almost never hold a quote: skip Foundation's replace.
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
