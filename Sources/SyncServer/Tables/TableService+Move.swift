import FilterSQL
import Foundation
import TableProtocol

extension TableService {
    /// Moves the rows `selections` pick from namespace `source` into namespace `target`, keeping
    /// their ids and versions, all or nothing (`NamespaceMove`). Answers each table's moved ids.
    /// The caller has checked that the account may write in both namespaces.
    public func move(_ selections: [MoveSelection], from source: String, to target: String, writer: String?) async throws -> [MovedRows] {
        guard source != target else { throw TableError.badRequest("The rows are already there: a move needs another namespace") }
        guard !schemas.isFixed else { throw TableError.forbidden("Moving rows needs the dynamic schema: this server runs with --fixed-schema") }
        guard (1...NamespaceMove.maxSelections).contains(selections.count) else {
            throw TableError.badRequest("A move names between 1 and \(NamespaceMove.maxSelections) tables")
        }
        let parsed = try selections.map { selection -> (String, TableQuery) in
            let query: TableQuery
            do {
                query = try TableQuery(queryItems: [URLQueryItem(name: "$filter", value: selection.filter)])
            } catch {
                throw TableError.badRequest("\(error)")
            }
            if let name = query.referencedMembers.first(where: { $0.hasPrefix("__") }) {
                throw TableError.badRequest("Invalid query: '\(name)' is not a column of this table (names starting with __ are the server's own)")
            }
            return (try TableName.key(selection.table), query)
        }
        let dialect = database.dialect
        let limits = schemas.limits
        let changeGroups = self.changeGroups
        let (moved, grown) = try await database.migrate { session in
            var moved: [MovedRows] = []
            var grown: [String] = []
            for (table, query) in parsed {
                let part = try NamespaceMove.move(table, query: query, from: source, to: target, writer: writer, groupColumn: changeGroups[table],
                                                  limits: limits, dialect: dialect, session: session)
                moved.append(part.moved)
                if part.grewTarget { grown.append(SchemaRegistry.Key(namespace: target, table: table).announced) }
            }
            return (moved, grown)
        }
        // After the commit: a schema read meanwhile may have kept the target's table as it was.
        for key in grown { schemas.forget(key) }
        return moved
    }
}
