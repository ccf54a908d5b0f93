import FilterSQL

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
