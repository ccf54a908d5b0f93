import GRDB
import GRDBSQLite

extension Statement {
    /// Runs the statement with `values` bound in order, each by GRDB's own `DatabaseValue.bind`:
    /// the store's per-row writes (a pull's inserts, a push's stamps). GRDB's `execute(arguments:)`
    /// builds its arguments with an initializer that is generic across modules, so unspecialized
    /// (it mapped each value through a key path), and binds them through nested closures: a good
    /// part of a first pull's CPU (BENCHMARKS.md, "The app at a million items").
    func execute(binding values: [DatabaseValue]) throws {
        // Resets the statement and clears its bindings; `execute()` then runs it as bound here.
        setUncheckedArguments(StatementArguments())
        let expected = Int(sqlite3_bind_parameter_count(sqliteStatement))
        guard values.count == expected else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "\(values.count) values for \(expected) parameters", sql: sql)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code = value.bind(to: sqliteStatement, at: index)
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "Binding parameter \(index) failed", sql: sql) }
        }
        try execute()
    }
}
