import Logging
import Synchronization

/// Keeps PostgreSQL's statistics of the row tables up with their growth, so a table's pages use
/// its (owner, updatedAt, id) index from its first thousand rows on instead of waiting for
/// autovacuum (a minute or more).
///
/// Why: until a table is analyzed, PostgreSQL guesses that an owner's rows are 0.5% of it, so
/// for a namespace that owns a young table it expects a handful of rows, reads them all and
/// sorts them for every page. A table grown from 0 to 10,000 rows served pages far slower that
/// way than after `ANALYZE` (issue #28; BENCHMARKS.md, "Read replicas and fresh tables").
///
/// Each process counts the rows it writes to each physical table and runs `ANALYZE` on it, off
/// the request, once they reach half the rows the table had at its last analysis (at least
/// `minimumRows`): a few times while a table grows from nothing, then rarely. `ANALYZE` reads a
/// sample (30,000 rows at most) and takes no lock that writes or reads wait for.
final class PostgresTableStatistics: Sendable {
    private struct Table {
        /// Rows written by this process since the last analysis was started.
        var written = 0
        /// The table's rows at the last analysis (PostgreSQL's `reltuples`).
        var rows = 0
        var analyzing = false
    }

    /// Fewer rows than this are served quickly whatever the plan.
    let minimumRows: Int
    private let tables = Mutex([String: Table]())
    private let logger: Logger
    /// Analyses run so far (for tests and the bench).
    let analyses = Atomic<Int>(0)

    init(minimumRows: Int = 1_000, logger: Logger) {
        self.minimumRows = minimumRows
        self.logger = logger
    }

    /// Counts `count` rows written to `physicalTable`; starts its analysis when they are due.
    func wrote(_ count: Int, to physicalTable: String, on database: PostgresDatabase) {
        let due = tables.withLock { tables -> Bool in
            var table = tables[physicalTable, default: Table()]
            defer { tables[physicalTable] = table }
            table.written += count
            guard !table.analyzing, table.written >= max(minimumRows, table.rows / 2) else { return false }
            table.analyzing = true
            table.written = 0
            return true
        }
        guard due else { return }
        Task { await analyze(physicalTable, on: database) }
    }

    private func analyze(_ physicalTable: String, on database: PostgresDatabase) async {
        let quoted = database.dialect.quote(physicalTable)
        let rows = try? await database.readStatement { session -> Int in
            try session.execute("ANALYZE \(quoted)", [])
            let count = try session.query("SELECT reltuples::bigint FROM pg_class WHERE oid = $1::regclass", [.text(quoted)]).rows.first?.first?.int64
            return Int(count ?? 0)
        }
        if rows == nil { logger.warning("could not analyze a table; its pages may be slow until autovacuum does", metadata: ["table": "\(physicalTable)"]) }
        analyses.add(1, ordering: .relaxed)
        tables.withLock { tables in
            tables[physicalTable]?.analyzing = false
            if let rows { tables[physicalTable]?.rows = rows }
        }
    }
}
