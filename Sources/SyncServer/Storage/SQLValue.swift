/// A value bound to or read from SQL, independent of the database engine.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case boolean(Bool)

    /// The value as text, if it is text.
    var text: String? { if case .text(let s) = self { return s } else { return nil } }

    /// The value as an integer, converting reals and booleans.
    var int64: Int64? {
        switch self {
        case .integer(let i): return i
        case .real(let d): return Int64(exactly: d.rounded(.towardZero))
        case .boolean(let b): return b ? 1 : 0
        default: return nil
        }
    }
}

/// The result rows of one statement: column names plus values in column order.
public struct SQLRows: Sendable {
    /// Column names as the database reports them.
    public var columns: [String]
    /// One array of values per row, in column order.
    public var rows: [[SQLValue]]

    /// Creates a result set.
    public init(columns: [String], rows: [[SQLValue]]) {
        self.columns = columns
        self.rows = rows
    }
}
