/// Table names as clients send them.
enum TableName {
    /// The name a namespace's table is kept under: validated, and lower-cased so every engine
    /// treats names alike (SQLite ignores case in names, PostgreSQL does not).
    static func key(_ name: String) throws -> String {
        try ItemBody.checkName(name, what: "table")
        let lower = name.caseFolded
        guard !lower.hasPrefix("__"), !lower.hasPrefix("sqlite_"), !lower.hasPrefix("pg_") else {
            throw TableError.badRequest("Invalid table name '\(name)': names starting with '__', 'sqlite_' or 'pg_' are reserved")
        }
        return lower
    }
}
