import FilterSQL
import TableProtocol

/// The row-level statements of one namespace's table: every statement matches the owner column
/// (the namespace) as well as `id`, so ids are a namespace's own, and reads and writes only the
/// namespace's columns, each selected under the namespace's name for it.
struct RowAccess {
    let dialect: any SQLDialect
    /// The namespace's name for the table (lower-cased): what clocks and change notices name.
    let table: String
    let schema: TableSchema
    let owner: String
    /// The name of the account writing (nil: anonymous), kept as the rows' `updatedBy`.
    var writer: String? = nil
    /// The property whose value groups the table's rows (`GroupClocks`); nil when it keeps none.
    var groupColumn: String? = nil

    /// The physical table.
    var quotedTable: String { dialect.quote(schema.physicalTable) }
    func quoted(_ property: SystemProperty) -> String { dialect.quote(property.rawValue) }
    /// An explicit column list: with `*`, a statement prepared before an ALTER TABLE can keep
    /// reporting the old columns (GRDB caches statements and their column names), and a physical
    /// table holds other namespaces' columns too.
    var columnList: String { schema.selectList }

    /// The quoted physical column and value of each property the table has (a null for a column
    /// it lacks is dropped, as the schema registry adds no column for it).
    func columnValues(_ properties: [(name: String, value: JSONScalar)]) -> [(column: String, value: SQLValue)] {
        properties.compactMap { name, value in
            schema.column(named: name).map { (dialect.quote($0.physical), SQLValue(value)) }
        } + writerValue
    }

    /// Who wrote, for every write, where the table keeps it (an operator's fixed table may not).
    private var writerValue: [(column: String, value: SQLValue)] {
        guard schema.column(named: SystemProperty.updatedBy.rawValue) == TableSchema.writerColumn else { return [] }
        return [(dialect.quote(TableSchema.writerColumn.physical), writer.map(SQLValue.text) ?? .null)]
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
        try update(id: id, properties: properties, timestamp: timestamp, version: version, onlyIfLive: false, at: nil, session: session)
    }

    /// The same, only if the row is not deleted and, given an `expected` version, has it: nil
    /// otherwise (or when there is no row), and nothing is written.
    func updateIfLive(at expected: String?, id: String, properties: [(name: String, value: JSONScalar)], timestamp: String, version: String,
                      session: any SQLSession) throws -> StoredItem? {
        try update(id: id, properties: properties, timestamp: timestamp, version: version, onlyIfLive: true, at: expected, session: session)
    }

    private func update(id: String, properties: [(name: String, value: JSONScalar)], timestamp: String, version: String,
                        onlyIfLive: Bool, at expected: String?, session: any SQLSession) throws -> StoredItem? {
        var binds = SQLBinds(dialect: dialect)
        var sets = ["\(quoted(.updatedAt)) = \(binds.bind(.text(timestamp)))", "\(quoted(.version)) = \(binds.bind(.text(version)))"]
        for (column, value) in columnValues(properties) { sets.append("\(column) = \(binds.bind(value))") }
        var conditions = ["\(TableSchema.ownerColumn) = \(binds.bind(.text(owner)))", "\(quoted(.id)) = \(binds.bind(.text(id)))"]
        if onlyIfLive { conditions.append("\(quoted(.deleted)) = FALSE") }
        if let expected { conditions.append("\(quoted(.version)) = \(binds.bind(.text(expected)))") }
        return try returning(session.query(
            "UPDATE \(quotedTable) SET \(sets.joined(separator: ", ")) WHERE \(conditions.joined(separator: " AND ")) RETURNING \(columnList)",
            binds.values))
    }

    /// Soft-deletes or restores the row and answers it as it now is.
    func setDeleted(_ deleted: Bool, id: String, timestamp: String, version: String, session: any SQLSession) throws -> StoredItem? {
        var binds = SQLBinds(dialect: dialect)
        var sets = ["\(quoted(.deleted)) = \(deleted ? "TRUE" : "FALSE")", "\(quoted(.updatedAt)) = \(binds.bind(.text(timestamp)))",
                    "\(quoted(.version)) = \(binds.bind(.text(version)))"]
        for (column, value) in writerValue { sets.append("\(column) = \(binds.bind(value))") }
        let ownerPlaceholder = binds.bind(.text(owner))
        let idPlaceholder = binds.bind(.text(id))
        return try returning(session.query(
            "UPDATE \(quotedTable) SET \(sets.joined(separator: ", ")) WHERE \(TableSchema.ownerColumn) = \(ownerPlaceholder) AND \(quoted(.id)) = \(idPlaceholder) RETURNING \(columnList)",
            binds.values))
    }

    private func returning(_ result: SQLRows) -> StoredItem? {
        result.rows.first.map { StoredItem(row: $0, columns: result.columns, schema: schema) }
    }
}
