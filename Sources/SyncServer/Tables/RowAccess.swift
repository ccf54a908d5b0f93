import FilterSQL
import TableProtocol

/// The row-level statements of one table.
struct RowAccess {
    let dialect: any SQLDialect
    let table: String
    let schema: TableSchema

    private var quotedTable: String { dialect.quote(table) }

    func fetch(id: String, session: any SQLSession) throws -> StoredItem? {
        let result = try session.query("SELECT * FROM \(quotedTable) WHERE \"id\" = \(dialect.placeholder(1))", [.text(id)])
        return result.rows.first.map { StoredItem(row: $0, columns: result.columns, schema: schema) }
    }

    func insert(id: String, properties: [(name: String, value: JSONScalar)], timestamp: String, version: String, session: any SQLSession) throws {
        var names = ["id", "createdAt", "updatedAt", "version", "deleted"].map(dialect.quote)
        var values: [SQLValue] = [.text(id), .text(timestamp), .text(timestamp), .text(version), .boolean(false)]
        for (name, value) in properties {
            guard let column = schema.column(named: name) else { continue }
            names.append(dialect.quote(column.name))
            values.append(SQLValue(value))
        }
        let placeholders = (1...values.count).map(dialect.placeholder).joined(separator: ", ")
        try session.execute("INSERT INTO \(quotedTable) (\(names.joined(separator: ", "))) VALUES (\(placeholders))", values)
    }

    func update(id: String, properties: [(name: String, value: JSONScalar)], timestamp: String, version: String, session: any SQLSession) throws {
        var binds = SQLBinds(dialect: dialect)
        var sets = ["\"updatedAt\" = \(binds.bind(.text(timestamp)))", "\"version\" = \(binds.bind(.text(version)))"]
        for (name, value) in properties {
            guard let column = schema.column(named: name) else { continue }
            sets.append("\(dialect.quote(column.name)) = \(binds.bind(SQLValue(value)))")
        }
        let idPlaceholder = binds.bind(.text(id))
        try session.execute("UPDATE \(quotedTable) SET \(sets.joined(separator: ", ")) WHERE \"id\" = \(idPlaceholder)", binds.values)
    }

    func setDeleted(_ deleted: Bool, id: String, timestamp: String, version: String, session: any SQLSession) throws {
        try session.execute(
            "UPDATE \(quotedTable) SET \"deleted\" = \(deleted ? "TRUE" : "FALSE"), \"updatedAt\" = \(dialect.placeholder(1)), \"version\" = \(dialect.placeholder(2)) WHERE \"id\" = \(dialect.placeholder(3))",
            [.text(timestamp), .text(version), .text(id)])
    }
}
