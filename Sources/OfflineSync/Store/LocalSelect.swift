import FilterSQL
import GRDB
import TableProtocol

/// A `SyncQuery` as SQLite SQL over a declared table, through the same typed translator the
/// server uses, so a filter means the same thing locally and remotely.
struct LocalSelect {
    let whereClause: String
    let rowsSQL: String
    let rowsBinds: [DatabaseValue]
    let countSQL: String?
    let countBinds: [DatabaseValue]

    init(query: SyncQuery, definition: SyncTableDefinition) throws {
        let dialect = SQLiteDialect()
        let table = StoreMigrator.quote(definition.name)
        var translator = FilterSQLTranslator(dialect: dialect, binds: SQLBinds(dialect: dialect)) { name, position in
            guard let column = definition.column(named: name) else {
                throw FilterSQLError("'\(name)' is not a column of '\(definition.name)' (at index \(position))")
            }
            return FilterColumn(name: column.name, type: column.type.columnType)
        }
        do {
            whereClause = try query.predicate.map { " WHERE " + (try translator.condition($0)) } ?? ""
        } catch {
            throw SyncError(.invalidParameter, "Invalid query: \(error)")
        }
        var order: [String] = []
        for clause in query.orderBy {
            guard let column = definition.column(named: clause.member) else {
                throw SyncError(.invalidParameter, "Invalid query: cannot order by '\(clause.member)', not a column of '\(definition.name)'")
            }
            order.append("\(StoreMigrator.quote(column.name)) \(clause.descending ? "DESC NULLS LAST" : "ASC NULLS FIRST")")
        }
        order.append("\"id\"")
        countBinds = translator.binds.values.map(\.databaseValue)
        var binds = translator.binds
        let limit = binds.bind(.integer(Int64(query.fetchLimit ?? -1)))
        let offset = binds.bind(.integer(Int64(max(query.fetchOffset ?? 0, 0))))
        rowsSQL = "SELECT * FROM \(table)\(whereClause) ORDER BY \(order.joined(separator: ", ")) LIMIT \(limit) OFFSET \(offset)"
        rowsBinds = binds.values.map(\.databaseValue)
        countSQL = query.includeTotalCount ? "SELECT COUNT(*) FROM \(table)\(whereClause)" : nil
    }
}

extension SyncColumnType {
    var columnType: ColumnType {
        switch self {
        case .text: return .text
        case .number: return .number
        case .boolean: return .boolean
        }
    }
}

extension SQLValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let i): return i.databaseValue
        case .real(let d): return d.databaseValue
        case .text(let s): return s.databaseValue
        case .boolean(let b): return b.databaseValue
        }
    }
}
