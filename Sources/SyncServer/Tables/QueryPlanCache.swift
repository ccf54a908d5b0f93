import Synchronization

/// A query's statement, ready to run again while its table's schema stays the same.
struct QueryPlan: Sendable {
    /// The schema the statement was written for (its column list, its filter's types).
    let schema: TableSchema
    let statement: SelectStatement
    let select: [String]?
    let top: Int
    let skip: Int

    /// Where the page ends (`skip + top`), at most `Int.max`: a `$skip` too large to read is
    /// `Int.max`, and adding to it ended the process (any client could, with one GET).
    var end: Int {
        let (end, overflow) = skip.addingReportingOverflow(top)
        return overflow ? Int.max : end
    }
}

/// Plans of recent query strings, per namespace schema. Parsing `$filter` and writing its SQL
/// cost about as much as reading a page of rows, and clients repeat queries: a device polling
/// for changes sends the same one until something changes. Rows are still read on every request.
/// Keyed by the schema itself (physical table and columns), so namespaces whose tables are laid
/// out alike share plans, and a schema that changed never meets a plan written for the old one.
final class QueryPlanCache: Sendable {
    private struct Key: Hashable {
        var schema: TableSchema
        var query: String
    }

    private let plans = Mutex<[Key: QueryPlan]>([:])
    /// Distinct query strings are few per client; a flood of one-off ones only resets the cache.
    private static let limit = 512

    /// The plan made for this exact query string on this schema, if any.
    func plan(schema: TableSchema, query: String) -> QueryPlan? {
        plans.withLock { $0[Key(schema: schema, query: query)] }
    }

    func remember(_ plan: QueryPlan, query: String) {
        plans.withLock { plans in
            if plans.count >= Self.limit { plans.removeAll(keepingCapacity: true) }
            plans[Key(schema: plan.schema, query: query)] = plan
        }
    }
}
