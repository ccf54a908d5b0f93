import FilterSQL
import Foundation
import TableProtocol

/// One page of a query.
public struct QueryPage: Sendable {
    /// The rows as a JSON array, reduced to `$select` when given (encoded by the store: pages
    /// are the hot path, and building objects only to print them cost more than the query).
    public var itemsJSON: [UInt8]
    /// Total matching rows ignoring top/skip, when `$inlinecount=allpages` asked for it.
    public var totalCount: Int?
    /// The `$top` and `$skip` of the next page, when more rows remain.
    public var next: (top: Int, skip: Int)?
}

extension TableService {
    /// `GET /tables/{t}?…`: filtered, ordered, paged rows (soft-deleted ones only on request)
    /// for a raw query string, through the plan cache. `readAfter` (ms since 1970): a read replica
    /// may answer only once it holds the table's writes up to then.
    public func query(table: String, queryString: String, owner: String = "", readAfter: Int64? = nil) async throws -> QueryPage {
        let table = try TableName.key(table)
        let schema = try await schemas.schema(of: table, in: owner)
        if let schema, let plan = plans.plan(schema: schema, query: queryString) {
            return try await run(plan, table: table, owner: owner, queryString: queryString, readAfter: readAfter)
        }
        let query: TableQuery
        do {
            query = try TableQuery(queryItems: QueryString.items(queryString))
        } catch {
            throw TableError.badRequest("\(error)")
        }
        // The server's own columns (`__owner`, `__updatedBy`) are no property of anyone's: named
        // anywhere in a query, they answer as a name no table can have.
        if let name = query.referencedMembers.first(where: { $0.hasPrefix("__") }) {
            throw TableError.badRequest("Invalid query: '\(name)' is not a column of this table (names starting with __ are the server's own)")
        }
        guard let plan = try await plan(table: table, owner: owner, cached: schema, query) else { return Self.emptyPage(query) }
        plans.remember(plan, query: queryString)
        return try await run(plan, table: table, owner: owner, queryString: queryString, readAfter: readAfter)
    }

    /// An empty page for a query, as for a table that holds no rows (the query is checked all the same).
    public func emptyPage(queryString: String) throws -> QueryPage {
        do {
            return Self.emptyPage(try TableQuery(queryItems: QueryString.items(queryString)))
        } catch {
            throw TableError.badRequest("\(error)")
        }
    }

    /// The statement for a query; nil when the owner's namespace has no such table yet.
    private func plan(table: String, owner: String, cached: TableSchema?, _ query: TableQuery) async throws -> QueryPlan? {
        let top = query.top ?? limits.pageSize
        guard top <= limits.maxTop else { throw TableError.badRequest("You cannot request more than \(limits.maxTop) records") }
        let skip = max(query.skip ?? 0, 0)
        guard var schema = cached else {
            if schemas.isFixed { throw TableError.tableNotFound }
            // The filter is still checked, so a malformed one answers 400 whether or not the table exists.
            _ = try SelectStatement(dialect: database.dialect, schema: TableSchema(columns: TableSchema.systemColumns, physicalTable: table),
                                    fixedSchema: false, query: query, top: top, skip: skip)
            return nil
        }
        // Another server process may have added a column the cache has not seen yet.
        if !query.referencedMembers.allSatisfy({ schema.column(named: $0) != nil }),
           let fresh = try await schemas.schema(of: table, in: owner, fresh: true) {
            schema = fresh
        }
        let statement = try SelectStatement(
            dialect: database.dialect, schema: schema, fixedSchema: schemas.isFixed, query: query, top: top, skip: skip)
        return QueryPlan(schema: schema, statement: statement, select: query.select, top: top, skip: skip)
    }

    private static func emptyPage(_ query: TableQuery) -> QueryPage {
        QueryPage(itemsJSON: Array("[]".utf8), totalCount: query.includeTotalCount ? 0 : nil, next: nil)
    }

    /// Reads one page of `owner`'s rows with a plan's statement, on a read replica when one may
    /// answer; a deep `$skip` page seeks where the previous page ended when it can (`SkipSeeks`).
    private func run(_ plan: QueryPlan, table: String, owner: String, queryString: String, readAfter: Int64?) async throws -> QueryPage {
        do {
            return try await read(plan, table: table, owner: owner, queryString: queryString, readAfter: readAfter)
        } catch where StatementTooComplex.matches(error) {
            throw TableError.badRequest("Invalid $filter: it nests too deeply for the database to parse")
        }
    }

    private func read(_ plan: QueryPlan, table: String, owner: String, queryString: String, readAfter: Int64?) async throws -> QueryPage {
        try await database.routedRead(table: table, owner: owner, after: readAfter) { database in
            if plan.top > 0, plan.end >= SkipSeeks.deepFrom, plan.select == nil, plan.statement.countSQL == nil,
               let orderKey = plan.statement.orderKey {
                let key = SkipSeeks.Key(owner: owner, table: table, physicalTable: plan.schema.physicalTable,
                                        query: QueryString.removing(["$skip"], from: queryString), end: plan.skip)
                return try await deepPage(plan, key: key, orderKey: orderKey.map(\.column), on: database)
            }
            return try await Self.run(plan, owner: owner, on: database)
        }
    }

    /// A deep `$skip` page: after the previous page's last row when the table's clock has not
    /// moved since that page (checked by the page's own statement, which otherwise reads
    /// nothing), else by `OFFSET`. Its own last row's key, read from the page's JSON, marks where
    /// the page after it starts.
    private func deepPage(_ plan: QueryPlan, key: SkipSeeks.Key, orderKey: [String], on database: any SQLDatabase) async throws -> QueryPage {
        let statement = plan.statement
        var page: (json: [UInt8], rows: Int)?
        var clock: Int64
        if let mark = skipSeeks.mark(key) {
            let seek = statement.seek(after: mark.after, owner: key.owner, limit: plan.top + 1, clock: (key.table, mark.clock))
            page = try await database.readJSONArray(seek.sql, seek.binds, schema: plan.schema, limit: plan.top)
            clock = mark.clock
            // A page the previous one said is there can be empty only if the clock moved.
            if page?.rows == 0 { page = nil } else { skipSeeks.seeks.add(1, ordering: .relaxed) }
        } else {
            clock = 0
        }
        if page == nil {
            // The clock before the rows: a write between the two moves it past the mark's.
            let p = database.dialect.placeholder
            let clockSQL = #"SELECT "last" FROM "__clocks" WHERE "ns" = \#(p(1)) AND "tbl" = \#(p(2))"#
            clock = try await database.readStatement { try $0.query(clockSQL, [.text(key.owner), .text(key.table)]).rows.first?.first?.int64 } ?? 0
            page = try await database.readJSONArray(statement.rowsSQL, statement.rowsBinds(owner: key.owner), schema: plan.schema, limit: plan.top)
        }
        let (json, rows) = page!
        let more = rows > plan.top
        if more, case .array(let items)? = try? JSONValue.parse(Data(json)), case .object(let last)? = items.last {
            let values = orderKey.compactMap { last[$0]?.stringValue }
            var following = key
            following.end = plan.end
            if values.count == orderKey.count { skipSeeks.remember(SkipSeeks.Mark(after: values.map(SQLValue.text), clock: clock), for: following) }
        }
        return QueryPage(itemsJSON: json, totalCount: nil, next: more ? (plan.top, plan.end) : nil)
    }

    private static func run(_ plan: QueryPlan, owner: String, on database: any SQLDatabase) async throws -> QueryPage {
        let statement = plan.statement
        let (json, rows, count): ([UInt8], Int, Int?)
        if plan.select == nil, statement.countSQL == nil {
            // The pull page: one statement, which a store may run without a synchronous session.
            (json, rows) = try await database.readJSONArray(statement.rowsSQL, statement.rowsBinds(owner: owner), schema: plan.schema, limit: plan.top)
            count = nil
        } else {
            let read: @Sendable (any SQLSession) throws -> ([UInt8], Int, Int?) = { session in
                let json: [UInt8]
                let rows: Int
                if let selected = plan.select {
                    (json, rows) = try Self.selectedJSON(session, statement, owner: owner, schema: plan.schema, select: selected, top: plan.top)
                } else {
                    (json, rows) = try session.queryJSONArray(statement.rowsSQL, statement.rowsBinds(owner: owner), schema: plan.schema, limit: plan.top)
                }
                let count = try statement.countSQL.map { try session.query($0, statement.countBinds(owner: owner)).rows.first?.first?.int64 ?? 0 }
                return (json, rows, count.map(Int.init))
            }
            // Rows and count must come from one snapshot; rows alone are one statement.
            (json, rows, count) = statement.countSQL == nil ? try await database.readStatement(read) : try await database.read(read)
        }
        let more = plan.top > 0 && rows > plan.top
        return QueryPage(itemsJSON: json, totalCount: count, next: more ? (plan.top, plan.end) : nil)
    }

    /// `$select` pages: members in the order asked for, null for names with no column yet.
    private static func selectedJSON(_ session: any SQLSession, _ statement: SelectStatement, owner: String, schema: TableSchema,
                                     select: [String], top: Int) throws -> ([UInt8], Int) {
        let result = try session.query(statement.rowsSQL, statement.rowsBinds(owner: owner))
        let types = StoredItem.types(of: result.columns, in: schema)
        let items = result.rows.prefix(top).map { row -> JSONValue in
            let item = StoredItem(row: row, columns: result.columns, types: types).properties
            return .object(JSONObject(select.map { name in
                let column = schema.column(named: name)?.name ?? name
                return (column, item[column] ?? .null)
            }))
        }
        return (JSONWriter.bytes(.array(items)), result.rows.count)
    }
}

extension TableQuery {
    /// Every member name the filter, order and select refer to.
    var referencedMembers: Set<String> {
        var names = Set(orderBy.map(\.member))
        names.formUnion(select ?? [])
        if let filter { names.formUnion(filter.memberNames) }
        return names
    }
}

extension FilterExpression {
    /// Every member name in the expression.
    var memberNames: Set<String> {
        switch node {
        case .literal: return []
        case .member(let name): return [name]
        case .unary(_, let e): return e.memberNames
        case .binary(_, let l, let r): return l.memberNames.union(r.memberNames)
        case .call(_, let args): return args.reduce(into: Set<String>()) { $0.formUnion($1.memberNames) }
        case .oneOf(let subject, _): return subject.memberNames
        }
    }
}
