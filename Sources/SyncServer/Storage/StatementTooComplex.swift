/// A statement the database refused as nested too deeply to parse: a filter of many functions
/// inside functions (SQLite's parser stack held 30 levels of `tolower`, within the 64 the filter
/// parser allows). The client's filter is at fault, so it answers 400, not 500.
enum StatementTooComplex {
    static func matches(_ error: any Error) -> Bool {
        // PostgreSQL: statement_too_complex (stack depth limit exceeded).
        if let state = PostgresFailure.sqlState(of: error) { return state == "54001" }
        // SQLite says so only in its message, through GRDB or the reader connections alike.
        let message = String(describing: error)
        return message.contains("parser stack overflow") || message.contains("Expression tree is too large")
    }
}
