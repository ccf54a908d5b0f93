import Synchronization

/// A query's statement, ready to run again while its table's schema stays the same.
struct QueryPlan: Sendable {
    /// The schema the statement was written for (its column list, its filter's types).
    let schema: TableSchema
    let statement: SelectStatement
    let select: [String]?
    let top: Int
    let skip: Int
}

/// Plans of recent query strings, per table. Parsing `$filter` and writing its SQL cost about
/// as much as reading a page of rows, and clients repeat queries: a device polling for changes
/// sends the same one until something changes. Rows are still read on every request.
final class QueryPlanCache: Sendable {
    private struct Key: Hashable {
        var table: String
        var query: String
    }

    private let plans = Mutex<[Key: QueryPlan]>([:])
    /// Distinct query strings are few per client; a flood of one-off ones only resets the cache.
    private static let limit = 512

    /// The plan made for this exact query string, if any.
    func plan(table: String, query: String) -> QueryPlan? {
        plans.withLock { $0[Key(table: table, query: query)] }
    }

    func remember(_ plan: QueryPlan, table: String, query: String) {
        plans.withLock { plans in
            if plans.count >= Self.limit { plans.removeAll(keepingCapacity: true) }
            plans[Key(table: table, query: query)] = plan
        }
    }
}
