import PostgresNIO

/// What a PostgreSQL failure says, in either of PostgresNIO's error types: `PSQLError` from its
/// current API, `PostgresError` from the EventLoopFuture API the prepared pages use.
enum PostgresFailure {
    /// The SQLSTATE the server answered with; nil for a failure without one (the connection's).
    static func sqlState(of error: any Error) -> String? {
        if let error = error as? PSQLError { return error.serverInfo?[.sqlState] }
        if case .server(let message)? = error as? PostgresError { return message.fields[.sqlState] }
        return nil
    }

    /// True for a failure of the statement that preparing it anew may mend: SQLSTATE class 42
    /// (a table, column or type that is not there) or 0A (a cached plan that no longer fits).
    static func isStatementFailure(_ error: any Error) -> Bool {
        guard let state = sqlState(of: error) else { return false }
        return state.hasPrefix("42") || state.hasPrefix("0A")
    }

    /// True for a failure of the connection rather than of the statement.
    static func isConnectionFailure(_ error: any Error) -> Bool {
        guard let state = sqlState(of: error) else { return true }
        return state.hasPrefix("08") || state.hasPrefix("57")
    }

    /// The server's message, else what kind of failure it was (never a URL or a password).
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            // PSQLError's description hides everything; its code says enough.
            return "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
        }
        if case .server(let message)? = error as? PostgresError, let text = message.fields[.message] { return text }
        return String(describing: error)
    }
}
