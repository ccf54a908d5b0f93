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
        for clause in query.orderBy {
            guard let column = try resolve(clause.member, 0) else { continue }
            if column.name == id { continue }  // system columns are stored under their own names
            // Nulls first ascending on both engines; system columns are never null, and leaving the
            // clause off them lets PostgreSQL walk the (updatedAt, id) index instead of sorting.
            let nulls = SystemProperty.isSystem(column.name) ? "" : (clause.descending ? " NULLS LAST" : " NULLS FIRST")
            order.append("\(dialect.quote(column.name)) \(clause.descending ? "DESC" : "ASC")\(nulls)")
        }
        // The id is always the last key, so paging is stable.
        let idDescending = query.orderBy.first(where: { SystemProperty(caseInsensitive: $0.member) == .id })?.descending ?? false
        order.append("\(dialect.quote(id)) \(idDescending ? "DESC" : "ASC")")

        let columns = query.select.map { names in
            let chosen = Set([id] + names.compactMap { schema.column(named: $0)?.name })
            return schema.columns.filter { chosen.contains($0.name) }.map { $0.selected(dialect) }.joined(separator: ", ")
        } ?? schema.columns.map { $0.selected(dialect) }.joined(separator: ", ")
        let from = " FROM \(dialect.quote(schema.physicalTable))"
        countBindsTemplate = translator.binds.values
        var binds = translator.binds
        let limit = binds.bind(.integer(Int64(top) + 1))
        let offset = binds.bind(.integer(Int64(skip)))
        rowsSQL = "SELECT \(columns)\(from)\(whereClause) ORDER BY \(order.joined(separator: ", ")) LIMIT \(limit) OFFSET \(offset)"
        countSQL = query.includeTotalCount ? "SELECT COUNT(*)\(from)\(whereClause)" : nil
        rowsBindsTemplate = binds.values
    }
}
