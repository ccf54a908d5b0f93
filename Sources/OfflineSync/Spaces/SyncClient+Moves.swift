import Foundation
import TableProtocol

/// Which rows of one table a server-side move takes (`SyncClient.moveRows`).
public struct RowSelection: Sendable, Equatable {
    /// The table.
    public var table: String
    /// The rows: those this predicate selects among the namespace's live rows.
    public var predicate: QueryPredicate

    /// A selection.
    public init(table: String, where predicate: QueryPredicate) {
        (self.table, self.predicate) = (table, predicate)
    }
}

extension SyncClient {
    /// Moves rows on the server from one namespace to another (`docs/protocol.md`, "Extension:
    /// moving rows between namespaces"): from `space` (nil: the account's own) into `target`
    /// (nil: the account's own), with their ids and versions, all or nothing. Answers the moved
    /// ids per table (lower-cased), and the rows given a new id because the target held theirs.
    /// Follow with `SyncContext.moveRows` so this device's copies move too (and
    /// `SyncContext.followRenamedRows` for the renamed); other devices learn of it as they push
    /// (`SyncErrorCode.itemMoved`) and pull.
    public func moveRows(_ selections: [RowSelection], from space: String?, to target: String?) async throws -> [String: MovedRowIds] {
        let tables: [JSONValue] = selections.map { selection in
            .object(JSONObject([("table", .string(selection.table)), ("filter", .string(FilterPrinter.print(selection.predicate.expression)))]))
        }
        let body = JSONObject([("to", .object(JSONObject([("space", target.map(JSONValue.string) ?? .null)]))), ("tables", .array(tables))])
        let reply: HTTPReply
        do {
            reply = try await send("POST", url: url("tables/$move", query: space.map { [URLQueryItem(name: "space", value: $0)] } ?? []),
                                   body: body, features: "SP")
        } catch {
            throw SyncError.wrap(error)
        }
        guard reply.status == 200 else { throw RemoteTable.error(from: reply) }
        guard case .array(let moved)? = (try? reply.json())?.objectValue?["moved"] else {
            throw SyncError(.httpError, "The server's answer about the move is not understood", statusCode: reply.status)
        }
        var ids: [String: MovedRowIds] = [:]
        for entry in moved {
            guard let table = entry.objectValue?["table"]?.stringValue, let list = entry.objectValue?["ids"]?.arrayValue else { continue }
            ids[table, default: MovedRowIds()].ids += list.compactMap(\.stringValue)
            for (old, new) in entry.objectValue?["renamed"]?.objectValue ?? [:] {
                if let new = new.stringValue { ids[table, default: MovedRowIds()].renamed[old] = new }
            }
        }
        return ids
    }
}

/// What a server-side move took from one table.
public struct MovedRowIds: Sendable, Equatable {
    /// The moved rows' ids, as they were.
    public var ids: [String] = []
    /// The rows the target gave a new id (a live row there held theirs): old id → new id.
    public var renamed: [String: String] = [:]

    /// What moved.
    public init(ids: [String] = [], renamed: [String: String] = [:]) {
        (self.ids, self.renamed) = (ids, renamed)
    }
}
