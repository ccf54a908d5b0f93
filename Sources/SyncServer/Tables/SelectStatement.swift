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
    /// The page's order as (quoted column, descending), the id last, when every column of it is a
    /// system column (never null): then a page can start after a row's key instead of counting
    /// `OFFSET` rows (`seek`). Nil for orders on the table's own columns.
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
        for clause in query.orderBy {
            guard let column = try resolve(clause.member, 0) else { continue }
            if column.name == id { continue }  // system columns are stored under their own names
            // Nulls first ascending on both engines; system columns are never null, and leaving the
            // clause off them lets PostgreSQL walk the (updatedAt, id) index instead of sorting.
            let system = SystemProperty.isSystem(column.name) && column.name != SystemProperty.deleted.rawValue
            let nulls = system ? "" : (clause.descending ? " NULLS LAST" : " NULLS FIRST")
            order.append("\(dialect.quote(column.name)) \(clause.descending ? "DESC" : "ASC")\(nulls)")
            key = system ? key.map { $0 + [(dialect.quote(column.name), clause.descending)] } : nil
        }
        // The id is always the last key, so paging is stable.
        let idDescending = query.orderBy.first(where: { SystemProperty(caseInsensitive: $0.member) == .id })?.descending ?? false
        order.append("\(dialect.quote(id)) \(idDescending ? "DESC" : "ASC")")
        orderKey = key.map { $0 + [(dialect.quote(id), idDescending)] }
        self.dialect = dialect

        let columns = query.select.map { names in
            let chosen = Set([id] + names.compactMap { schema.column(named: $0)?.name })
            return schema.columns.filter { chosen.contains($0.name) }.map { $0.selected(dialect) }.joined(separator: ", ")
        } ?? schema.columns.map { $0.selected(dialect) }.joined(separator: ", ")
        let from = " FROM \(dialect.quote(schema.physicalTable))"
        countBindsTemplate = translator.binds.values
        var binds = translator.binds
        let limit = binds.bind(.integer(Int64(top) + 1))
        let offset = binds.bind(.integer(Int64(skip)))
        selectSQL = "SELECT \(columns)\(from)\(whereClause)"
        orderSQL = " ORDER BY \(order.joined(separator: ", "))"
        rowsSQL = "\(selectSQL)\(orderSQL) LIMIT \(limit) OFFSET \(offset)"
        countSQL = query.includeTotalCount ? "SELECT COUNT(*)\(from)\(whereClause)" : nil
        rowsBindsTemplate = binds.values
    }

    /// `limit` rows from the `offset`-th row after the row whose order key is `key` (nil: from
    /// the first row), for `owner`; `columns` replaces the selected columns (the order key, say).
    /// With `orderKey` set only.
    func seek(after key: [SQLValue]?, owner: String, limit: Int, offset: Int, columns: String? = nil) -> (sql: String, binds: [SQLValue]) {
        var binds = SQLBinds(dialect: dialect, values: countBinds(owner: owner))
        var sql = columns.map { "SELECT \($0)" + selectSQL[selectSQL.range(of: " FROM ")!.lowerBound...] } ?? selectSQL
        if let key, let orderKey {
            // (a, b, id) after (x, y, z): a > x OR (a = x AND (b > y OR (b = y AND id > z))),
            // each comparison turned for a descending column.
            var condition = ""
            for (index, part) in orderKey.enumerated().reversed() {
                let value = binds.bind(key[index])
                let after = "\(part.column) \(part.descending ? "<" : ">") \(value)"
                condition = condition.isEmpty ? after : "\(after) OR (\(part.column) = \(value) AND (\(condition)))"
            }
            sql += " AND (\(condition))"
        }
        sql += "\(orderSQL) LIMIT \(binds.bind(.integer(Int64(limit)))) OFFSET \(binds.bind(.integer(Int64(offset))))"
        return (sql, binds.values)
    }
}
