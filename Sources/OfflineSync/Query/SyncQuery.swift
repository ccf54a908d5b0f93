import Foundation
import TableProtocol

/// A query on one table, run locally (in SQLite) or remotely (as OData) with the same meaning.
public struct SyncQuery: Sendable, Equatable {
    /// The table queried.
    public var table: String
    /// The filter, if any.
    public var predicate: FilterExpression?
    /// Sort keys in order.
    public var orderBy: [OrderByClause] = []
    /// At most this many rows (`$top`); for pulls, the total to pull.
    public var fetchLimit: Int?
    /// Rows to skip first (`$skip`).
    public var fetchOffset: Int?
    /// Only these columns (`$select`).
    public var selectFields: [String]?
    /// Also return the total count of matching rows (`$inlinecount=allpages`).
    public var includeTotalCount = false
    /// Extra query parameters sent to the server as they are.
    public var parameters: [String: String] = [:]
    /// Whether a local store puts rows that tie on `orderBy` in id order (the tiebreak that
    /// keeps pages apart), or leaves them in the order it walks them (`tiesInAnyOrder()`).
    public var breaksTiesById = true

    /// A query for every row of `table`.
    public init(table: String) { self.table = table }

    /// Adds a filter, AND-ed with any filter already set.
    public func filter(_ predicate: QueryPredicate) -> SyncQuery {
        var copy = self
        copy.predicate = copy.predicate.map { .init(.binary(.and, $0, predicate.expression)) } ?? predicate.expression
        return copy
    }

    /// Adds a filter written in OData (`"complete eq false and startswith(text, 'a')"`).
    public func filter(odata: String) throws -> SyncQuery {
        do {
            return filter(QueryPredicate(try FilterParser.parse(odata)))
        } catch {
            throw SyncError(.invalidParameter, "Invalid filter: \(error)")
        }
    }

    /// Adds a sort key.
    public func order(by field: String, ascending: Bool = true) -> SyncQuery {
        var copy = self
        copy.orderBy.append(OrderByClause(member: field, descending: !ascending))
        return copy
    }

    /// The same rows in the opposite order, the local store's id tiebreak included, so
    /// `reversed().offset(n)` reads the rows `n` from the end walking only `n` rows: the last
    /// page of a million-row list reads as fast as the first (an offset walks what it skips).
    public func reversed() -> SyncQuery {
        var copy = self
        let id = SystemProperty.id.rawValue
        if !orderBy.contains(where: { $0.member.lowercased() == id }) { copy.orderBy.append(OrderByClause(member: id)) }
        copy.orderBy = copy.orderBy.map { OrderByClause(member: $0.member, descending: !$0.descending) }
        return copy
    }

    /// The same rows, those that tie on `orderBy` in whatever order a local store walks them:
    /// for a read taken whole that only needs its rows grouped, where sorting every tie by id is
    /// work on top of walking the index that answers the order. Pages of such a read may
    /// overlap; `reversed()` breaks ties by id again.
    public func tiesInAnyOrder() -> SyncQuery { var copy = self; copy.breaksTiesById = false; return copy }

    /// Limits the number of rows.
    public func limit(_ count: Int) -> SyncQuery { var copy = self; copy.fetchLimit = count; return copy }

    /// Skips rows first.
    public func offset(_ count: Int) -> SyncQuery { var copy = self; copy.fetchOffset = count; return copy }

    /// Returns only these fields.
    public func select(_ fields: [String]) -> SyncQuery { var copy = self; copy.selectFields = fields; return copy }

    /// Asks for the total count beside the rows.
    public func withTotalCount() -> SyncQuery { var copy = self; copy.includeTotalCount = true; return copy }

    /// How deep a filter may nest once its chains are balanced (`checkedFilter`): what SQLite's
    /// parser takes in the worst shape, functions nested in functions (34 levels of
    /// `tolower(tolower(…))` overflowed its stack; `not` 48, `and` 100). todo-server takes 64.
    public static let maximumFilterDepth = 32

    /// The filter with its `and` and `or` chains balanced, so a chain of any length reads (one
    /// term per list of thousands, or `filter` called as often); a filter nested deeper than
    /// `maximumFilterDepth` even so is refused here, before anything walks it.
    func checkedFilter() throws -> FilterExpression? {
        guard let balanced = predicate?.balancingChains() else { return nil }
        let depth = balanced.depth
        guard depth <= Self.maximumFilterDepth else {
            throw SyncError(.invalidParameter, "Invalid query: the filter nests \(depth) levels deep, more than the \(Self.maximumFilterDepth) allowed")
        }
        return balanced
    }

    /// This query with its filter checked and balanced (`checkedFilter`).
    func checked() throws -> SyncQuery {
        var query = self
        query.predicate = try checkedFilter()
        return query
    }

    /// The OData query items for the server (filter through the `TableProtocol` printer).
    public var queryItems: [URLQueryItem] {
        var items = TableQuery(filter: predicate, orderBy: orderBy, top: fetchLimit, skip: fetchOffset,
                               select: selectFields, includeTotalCount: includeTotalCount).queryItems
        for (name, value) in parameters.sorted(by: { $0.key < $1.key }) { items.append(URLQueryItem(name: name, value: value)) }
        return items
    }
}

/// The rows of a query and, when asked for, the total count ignoring limit and offset.
public struct SyncQueryResult: Sendable, Equatable {
    /// The rows.
    public var items: [JSONObject]
    /// The total count, when the query asked for it.
    public var totalCount: Int?
    /// The server's clock when it answered (its `Date` header), when it said.
    public var serverDate: Date?

    /// Creates a result.
    public init(items: [JSONObject], totalCount: Int? = nil, serverDate: Date? = nil) {
        self.items = items
        self.totalCount = totalCount
        self.serverDate = serverDate
    }
}
