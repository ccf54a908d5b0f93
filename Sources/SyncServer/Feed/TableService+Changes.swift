import FilterSQL
import Foundation
import TableProtocol

extension TableService {
    /// The changes of one owner's table committed after `since` (an `updatedAt`), oldest first, at
    /// most `limit`: what a change feed replays to a subscriber that reconnects.
    func changes(table: String, since: String, owner: String, limit: Int) async throws -> [ChangeNotice] {
        let table = try TableName.physical(table)
        guard try await schemas.schema(of: table) != nil else { return [] }
        let dialect = database.dialect
        let column = { (property: SystemProperty) in dialect.quote(property.rawValue) }
        let sql = "SELECT \(column(.id)), \(column(.updatedAt)), \(column(.deleted)) FROM \(dialect.quote(table)) "
            + "WHERE \(TableSchema.ownerColumn) = \(dialect.placeholder(1)) AND \(column(.updatedAt)) > \(dialect.placeholder(2)) "
            + "ORDER BY \(column(.updatedAt)) LIMIT \(dialect.placeholder(3))"
        let rows = try await database.readStatement { session in
            try session.query(sql, [.text(owner), .text(since), .integer(Int64(limit))]).rows
        }
        return rows.compactMap { row in
            guard row.count == 3, case .text(let id) = row[0], case .text(let updatedAt) = row[1] else { return nil }
            let deleted: Bool
            switch row[2] {
            case .boolean(let value): deleted = value
            case .integer(let value): deleted = value != 0
            default: deleted = false
            }
            return ChangeNotice(table: table, owner: owner, id: id, updatedAt: updatedAt, deleted: deleted)
        }
    }
}
