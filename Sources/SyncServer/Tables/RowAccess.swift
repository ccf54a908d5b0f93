import FilterSQL
import TableProtocol

/// The row-level statements of one table, within one owner's rows: every statement matches
/// `__owner` as well as `id`, so ids are a namespace per user.
struct RowAccess {
    let dialect: any SQLDialect
    let table: String
    let schema: TableSchema
    let owner: String

    var quotedTable: String { dialect.quote(table) }
    func quoted(_ property: SystemProperty) -> String { dialect.quote(property.rawValue) }
    /// An explicit column list: with `*`, a statement prepared before an ALTER TABLE can keep
    /// reporting the old columns (GRDB caches statements and their column names).
    var columnList: String { schema.columns.map { dialect.quote($0.name) }.joined(separator: ", ") }

    /// The quoted column and value of each property the table has (a null for a column it
    /// lacks is dropped, as the schema registry adds no column for it).
    func columnValues(_ properties: [(name: String, value: JSONScalar)]) -> [(column: String, value: SQLValue)] {
        properties.compactMap { name, value in
            schema.column(named: name).map { (dialect.quote($0.name), SQLValue(value)) }
        }
    }

    func fetch(id: String, session: any SQLSession) throws -> StoredItem? {
        let result = try session.query(
            "SELECT \(columnList) FROM \(quotedTable) WHERE \(TableSchema.ownerColumn) = \(dialect.placeholder(1)) AND \(quoted(.id)) = \(dialect.placeholder(2))",
            [.text(owner), .text(id)])
        return result.rows.first.map { StoredItem(row: $0, columns: result.columns, schema: schema) }
    }

    /// Inserts the row and answers it, or nil when the id exists already.
    func insert(id: String, properties: [(name: String, value: JSONScalar)], timestamp: String, version: String, session: any SQLSession) throws -> StoredItem? {
        var names = [TableSchema.ownerColumn] + [SystemProperty.id, .createdAt, .updatedAt, .version, .deleted].map(quoted)
        var values: [SQLValue] = [.text(owner), .text(id), .text(timestamp), .text(timestamp), .text(version), .boolean(false)]
        for (column, value) in columnValues(properties) {
            names.append(column)
            values.append(value)
        }
        let placeholders = (1...values.count).map(dialect.placeholder).joined(separator: ", ")
        return try returning(session.query(
            "INSERT INTO \(quotedTable) (\(names.joined(separator: ", "))) VALUES (\(placeholders)) ON CONFLICT (\(TableSchema.ownerColumn), \(quoted(.id))) DO NOTHING RETURNING \(columnList)", values))
    }

    /// Changes the sent properties and answers the row as it now is.
    func update(id: String, properties: [(name: String, value: JSONScalar)], timestamp: String, version: String, session: any SQLSession) throws -> StoredItem? {
        var binds = SQLBinds(dialect: dialect)
        var sets = ["\(quoted(.updatedAt)) = \(binds.bind(.text(timestamp)))", "\(quoted(.version)) = \(binds.bind(.text(version)))"]
        for (column, value) in columnValues(properties) { sets.append("\(column) = \(binds.bind(value))") }
        let ownerPlaceholder = binds.bind(.text(owner))
        let idPlaceholder = binds.bind(.text(id))
        return try returning(session.query(
            "UPDATE \(quotedTable) SET \(sets.joined(separator: ", ")) WHERE \(TableSchema.ownerColumn) = \(ownerPlaceholder) AND \(quoted(.id)) = \(idPlaceholder) RETURNING \(columnList)",
            binds.values))
    }

    /// Soft-deletes or restores the row and answers it as it now is.
    func setDeleted(_ deleted: Bool, id: String, timestamp: String, version: String, session: any SQLSession) throws -> StoredItem? {
        try returning(session.query(
            "UPDATE \(quotedTable) SET \(quoted(.deleted)) = \(deleted ? "TRUE" : "FALSE"), \(quoted(.updatedAt)) = \(dialect.placeholder(1)), "
                + "\(quoted(.version)) = \(dialect.placeholder(2)) WHERE \(TableSchema.ownerColumn) = \(dialect.placeholder(3)) AND \(quoted(.id)) = \(dialect.placeholder(4)) RETURNING \(columnList)",
            [.text(timestamp), .text(version), .text(owner), .text(id)]))
    }

    private func returning(_ result: SQLRows) -> StoredItem? {
        result.rows.first.map { StoredItem(row: $0, columns: result.columns, schema: schema) }
    }
}
