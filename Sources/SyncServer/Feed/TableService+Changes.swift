import TableProtocol

extension TableService {
    /// The changes of one owner's table (its physical name) committed after `since` (an `updatedAt`),
    /// oldest first, at most `limit`: what a change feed replays to a subscriber that reconnects.
    func changes(table: String, since: String, owner: String, limit: Int) async throws -> [ChangeNotice] {
        guard let schema = try await schemas.schema(of: table, in: owner) else { return [] }
        let dialect = database.dialect
        let column = { (property: SystemProperty) in dialect.quote(property.rawValue) }
        let sql = "SELECT \(column(.id)), \(column(.updatedAt)), \(column(.deleted)) FROM \(dialect.quote(schema.physicalTable)) "
            + "WHERE \(TableSchema.ownerColumn) = \(dialect.placeholder(1)) AND \(column(.updatedAt)) > \(dialect.placeholder(2)) "
            + "ORDER BY \(column(.updatedAt)) LIMIT \(dialect.placeholder(3))"
        let result = try await database.readStatement { session in
            try session.query(sql, [.text(owner), .text(since), .integer(Int64(limit))])
        }
        return result.rows.map { row in
            ChangeNotice(table: table, owner: owner, item: StoredItem(row: row, columns: result.columns, schema: schema))
        }
    }
}
