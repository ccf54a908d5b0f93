import FilterSQL
import Synchronization

/// Where the previous page of a `$skip` query ended, so its next page seeks there instead of
/// counting `OFFSET` rows.
///
/// Why: a base-protocol client (the Azure JS client, for one) pages with `$skip`, and `OFFSET n`
/// reads and drops n rows: on a million rows the page at `$skip=500000` was far slower than the
/// first (issue #28; BENCHMARKS.md, "A million rows"). Each deep page (`$skip + $top` ≥ `deepFrom`)
/// of a query ordered by system columns only (never null, the id last, so the order is total)
/// remembers the order key of its last row and the namespace table's clock (read before the
/// page's rows). The page at the next `$skip` of the same query starts after that key, in a
/// statement that reads nothing unless the clock still reads the same (no write to that
/// namespace's table committed since): then those are the very rows `OFFSET` would give.
/// Otherwise it counts `OFFSET` rows as before.
final class SkipSeeks: Sendable {
    /// A page that ends at `end` of a query (its text without `$skip`) of a namespace's table.
    struct Key: Hashable {
        var owner: String
        var table: String
        var physicalTable: String
        var query: String
        var end: Int
    }

    struct Mark: Sendable {
        /// The order key of the row before the page.
        var after: [SQLValue]
        /// The namespace table's clock when the key was read.
        var clock: Int64
    }

    /// Pages that start earlier are cheap to count to.
    static let deepFrom = 1_000
    /// A mark per client paging deep right now; past it the marks start over.
    private static let capacity = 10_000
    /// Longer query texts are not remembered (their pages count `OFFSET`): a key holds its text,
    /// and 10,000 marks of 60 KB queries (padding) would hold over 600 MB. So marks hold 20 MB at
    /// most.
    static let longestQuery = 2_048
    private let marks = Mutex([Key: Mark]())
    /// Pages served by seeking (for tests and the bench).
    let seeks = Atomic<Int>(0)

    func mark(_ key: Key) -> Mark? { marks.withLock { $0[key] } }

    func remember(_ mark: Mark, for key: Key) {
        guard key.query.utf8.count <= Self.longestQuery else { return }
        marks.withLock { marks in
            if marks.count >= Self.capacity, marks[key] == nil { marks.removeAll(keepingCapacity: true) }
            marks[key] = mark
        }
    }
}
