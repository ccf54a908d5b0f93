import Foundation
import SyncServer
import TableProtocol

/// Rows of one namespace's table read through `TableService`, the same queries a client sends:
/// the face keeps the protocol's namespace boundary and never builds SQL of its own.
struct TableRows: Sendable {
    let tables: TableService
    let table: String
    /// The namespace: an account's id, or a shared space's.
    let owner: String

    /// Every row matching `filter` (an OData `$filter`), read page by page in `orderBy` order.
    /// `deleted`: soft-deleted rows too.
    func all(filter: String?, orderBy: String = "id", select: [String]? = nil, deleted: Bool = false) async throws -> [JSONObject] {
        var rows: [JSONObject] = []
        var skip = 0
        while true {
            let page = try await self.page(filter: filter, orderBy: orderBy, top: tables.maxTop, skip: skip, select: select, deleted: deleted)
            rows += page
            guard page.count == tables.maxTop else { return rows }
            skip += page.count
        }
    }

    /// One page of rows.
    func page(filter: String?, orderBy: String, top: Int, skip: Int = 0, select: [String]? = nil, deleted: Bool = false) async throws -> [JSONObject] {
        var items = [("$orderby", orderBy), ("$top", String(top))]
        if let filter { items.append(("$filter", filter)) }
        if skip > 0 { items.append(("$skip", String(skip))) }
        if let select { items.append(("$select", select.joined(separator: ","))) }
        if deleted { items.append(("__includeDeleted", "true")) }
        let query = items.map { "\($0.0)=\(Self.encoded($0.1))" }.joined(separator: "&")
        let page = try await tables.query(table: table, queryString: query, owner: owner)
        guard case .array(let values) = try JSONValue.parse(Data(page.itemsJSON)) else { return [] }
        return values.compactMap(\.objectValue)
    }

    /// The live row with this id, or nil.
    func row(id: String) async throws -> JSONObject? {
        do {
            return try await tables.read(table: table, id: id, owner: owner).properties
        } catch let error as TableError where error.status == 404 {
            return nil
        }
    }

    /// The row with this id, live or soft-deleted, or nil.
    func anyRow(id: String) async throws -> JSONObject? {
        try await page(filter: "id eq \(Self.literal(id))", orderBy: "id", top: 1, deleted: true).first
    }

    /// An OData string literal.
    static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// An OData date-time literal of a stamp.
    static func stamp(_ text: String) -> String { "datetimeoffset'\(text)'" }

    private static func encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}
