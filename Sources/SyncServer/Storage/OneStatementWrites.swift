/// A database that runs a single-item write (the table clock's tick, the row and its change
/// notice) as one statement in its own transaction, instead of a transaction of several.
protocol OneStatementWrites: SQLDatabase {
    /// Runs `write` on `rows`; nil when it changed no row (the caller then takes the transaction
    /// path, which answers why).
    func writeInOneStatement(_ write: TableWrite, rows: RowAccess) async throws -> StoredItem?
}
