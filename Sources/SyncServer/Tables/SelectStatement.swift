import FilterSQL
import TableProtocol

/// The SQL for one query page (one extra row to learn whether more remain) and its count,
/// for any owner: the owner is the first bind of both, filled in per request, so one plan
/// serves every user.
struct SelectStatement: Sendable {
    let rowsSQL: String
    private let rowsBindsTemplate: [SQLValue]
    let countSQL: String?
    private let countBindsTemplate: [SQLValue]
    /// The page's order as (column, descending), the id last, when every column of it is a
    /// system column (never null, stored as text, named in JSON as in the table): then a page can
    /// start after a row's key instead of counting `OFFSET` rows (`seek`). Nil for orders on the
    /// table's own columns.
    let orderKey: [(column: String, descending: Bool)]?
    /// `SELECT … FROM … WHERE …` and ` ORDER BY …`, for `seek`.
    private let selectSQL: String
    private let orderSQL: String
    private let dialect: any SQLDialect

    /// The page's binds for `owner`'s rows.
    func rowsBinds(owner: String) -> [SQLValue] { Self.fill(rowsBindsTemplate, owner: owner) }

    /// The count's binds for `owner`'s rows.
    func countBinds(owner: String) -> [SQLValue] { Self.fill(countBindsTemplate, owner: owner) }

    private static func fill(_ template: [SQLValue], owner: String) -> [SQLValue] {
        var binds = template
        binds[0] = .text(owner)
        return binds
    }

    /// The statement for a namespace's `schema` (its physical table and columns; the owner is bound per request).
    init(dialect: any SQLDialect, schema: TableSchema, fixedSchema: Bool, query: TableQuery, top: Int, skip: Int) throws {
        func resolve(_ name: String, _ position: Int) throws -> FilterColumn? {
            if let column = schema.column(named: name) { return FilterColumn(name: column.physical, type: column.type) }
            if fixedSchema { throw TableError.badRequest("Invalid query: '\(name)' is not a column of this table (at index \(position))") }
            return nil
        }
        let id = SystemProperty.id.rawValue
        var ownerBinds = SQLBinds(dialect: dialect)
        var conditions = ["\(TableSchema.ownerColumn) = \(ownerBinds.bind(.text("")))"]
        if !query.includeDeleted { conditions.append("\(dialect.quote(SystemProperty.deleted.rawValue)) = FALSE") }
        var translator = FilterSQLTranslator(dialect: dialect, binds: ownerBinds, resolve: resolve)
        if let filter = query.filter {
            do {
                conditions.append(try translator.condition(filter))
            } catch let error as FilterSQLError {
                throw TableError.badRequest("Invalid $filter: \(error)")
            }
        }
        let whereClause = " WHERE " + conditions.joined(separator: " AND ")

        var order: [String] = []
        var key: [(column: String, descending: Bool)]? = []
        let keyTypes: Set<String> = [SystemProperty.updatedAt.rawValue, SystemProperty.createdAt.rawValue, SystemProperty.version.rawValue]
        for clause in query.orderBy {
            guard let column = try resolve(clause.member, 0) else { continue }
            if column.name == id { continue }  // system columns are stored under their own names
            // Nulls first ascending on both engines; system columns are never null, and leaving the
            // clause off them lets PostgreSQL walk the (updatedAt, id) index instead of sorting.
            let nulls = SystemProperty.isSystem(column.name) ? "" : (clause.descending ? " NULLS LAST" : " NULLS FIRST")
            order.append("\(dialect.quote(column.name)) \(clause.descending ? "DESC" : "ASC")\(nulls)")
            key = keyTypes.contains(column.name) ? key.map { $0 + [(column.name, clause.descending)] } : nil
        }
        // The id is always the last key, so paging is stable.
        let idDescending = query.orderBy.first(where: { SystemProperty(caseInsensitive: $0.member) == .id })?.descending ?? false
        order.append("\(dialect.quote(id)) \(idDescending ? "DESC" : "ASC")")
        orderKey = key.map { $0 + [(id, idDescending)] }
        self.dialect = dialect

        let columns = query.select.map { names in
            let chosen = Set([id] + names.compactMap { schema.column(named: $0)?.name })
            return schema.columns.filter { chosen.contains($0.name) }.map(\.selected).joined(separator: ", ")
        } ?? schema.selectList
        let from = " FROM \(dialect.quote(schema.physicalTable))"
        countBindsTemplate = translator.binds.values
        var binds = translator.binds
        selectSQL = "SELECT \(columns)\(from)\(whereClause)"
        orderSQL = " ORDER BY \(order.joined(separator: ", "))"
        // The limit written in, and no OFFSET on a first page: PostgreSQL plans a prepared page
        // once for all its values only when it knows how many rows the page reads (with either
        // bound, its generic plan assumed a tenth of the table and it planned every page anew, at
        // a cost in PostgreSQL's CPU per page; BENCHMARKS.md, "The PostgreSQL page's CPU").
        // A page further on binds its offset, so its statement is the same for every `$skip`.
        rowsSQL = "\(selectSQL)\(orderSQL) LIMIT \(top + 1)" + (skip > 0 ? " OFFSET \(binds.bind(.integer(Int64(skip))))" : "")
        countSQL = query.includeTotalCount ? "SELECT COUNT(*)\(from)\(whereClause)" : nil
        rowsBindsTemplate = binds.values
    }

    /// `limit` rows after the row whose order key is `key`, for `owner`, or none if the clock row
    /// of `owner`'s `table` no longer reads `clock` (one statement, so the check and the rows are
    /// one snapshot). With `orderKey` set only.
    func seek(after key: [SQLValue], owner: String, limit: Int, clock: (table: String, value: Int64)) -> (sql: String, binds: [SQLValue]) {
        var binds = SQLBinds(dialect: dialect, values: countBinds(owner: owner))
        var sql = selectSQL
        sql += #" AND (SELECT "last" FROM "__clocks" WHERE "ns" = \#(dialect.placeholder(1)) AND "tbl" = \#(binds.bind(.text(clock.table)))) = \#(binds.bind(.integer(clock.value)))"#
        if let orderKey {
            // (a, b, id) after (x, y, z): a > x OR (a = x AND (b > y OR (b = y AND id > z))),
            // each comparison turned for a descending column.
            let values = key.map { binds.bind($0) }
            var condition = ""
            for (index, part) in orderKey.enumerated().reversed() {
                let column = dialect.quote(part.column)
                let after = "\(column) \(part.descending ? "<" : ">") \(values[index])"
                condition = condition.isEmpty ? after : "\(after) OR (\(column) = \(values[index]) AND (\(condition)))"
            }
            // The first column's bound alone, beside the expansion, lets the index start there
            // (an OR hides it from both planners: the page then scanned from the table's start).
            let first = dialect.quote(orderKey[0].column)
            sql += " AND \(first) \(orderKey[0].descending ? "<=" : ">=") \(values[0]) AND (\(condition))"
        }
        sql += "\(orderSQL) LIMIT \(limit)"
        return (sql, binds.values)
    }
}
