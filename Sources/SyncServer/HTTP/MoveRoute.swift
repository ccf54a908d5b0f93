import Hummingbird
import TableProtocol

/// `POST /tables/$move` (docs/protocol.md, "Extension: moving rows between namespaces"): moves
/// rows from the request's namespace (the caller's own, or `?space=`) into another, keeping their
/// ids and versions, as one transaction:
///
///     {"to": {"space": "space-…" | null}, "tables": [{"table": "lists", "filter": "id eq 'L'"}, …]}
///
/// `to.space` null (or absent) is the caller's own namespace. The caller must be able to write in
/// both: a viewer gets 403 `readOnlySpace`, a non-member 404 `spaceNotFound`. A row whose id a
/// live row of the target holds already moves with a new id. The answer names what moved, and
/// the new ids: `{"moved": [{"table": "lists", "ids": ["L"], "renamed": {"L": "new id"}}, …]}`.
struct MoveRoute {
    let service: TableService
    let spaces: SpaceStore

    func respond(_ body: JSONObject, context: TableRequestContext) async throws -> Response {
        guard !context.account.isEmpty else {
            throw TableError.forbidden("Moving rows between namespaces needs accounts: this server runs with --auth off")
        }
        let target = try await targetNamespace(body["to"], account: context.account)
        guard case .array(let entries)? = body["tables"] else {
            throw TableError.badRequest(#"Send {"to": {"space": …}, "tables": [{"table": …, "filter": …}, …]}"#)
        }
        let selections = try entries.enumerated().map { position, entry -> MoveSelection in
            guard case .string(let table)? = entry.objectValue?["table"], case .string(let filter)? = entry.objectValue?["filter"] else {
                throw TableError.badRequest("Entry \(position) of \"tables\" needs a \"table\" and a \"filter\" (strings)")
            }
            return MoveSelection(table: table, filter: filter)
        }
        let moved = try await service.move(selections, from: context.owner, to: target, writer: context.accountName)
        let list: [JSONValue] = moved.map { part in
            .object(JSONObject([("table", .string(part.table)), ("ids", .array(part.ids.map(JSONValue.string))),
                                ("renamed", .object(JSONObject(part.renamed.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))]))
        }
        return JSONResponse.make(.ok, .object(JSONObject([("moved", .array(list))])))
    }

    /// The namespace `to` names, once the account may write there.
    private func targetNamespace(_ to: JSONValue?, account: String) async throws -> String {
        let space: String?
        switch to?.objectValue?["space"] {
        case nil, .null?: space = nil
        case .string(let id)?: space = id.isEmpty ? nil : id
        default: throw TableError.badRequest(#""to" is {"space": "<space id>"} or {"space": null} (your own namespace)"#)
        }
        if to != nil, to?.objectValue == nil { throw TableError.badRequest(#""to" is {"space": "<space id>"} or {"space": null} (your own namespace)"#) }
        guard let space else { return account }
        guard let role = try await spaces.role(of: account, in: space) else { throw SpaceStore.noSuchSpace }
        guard role.canWrite else { throw TableError.readOnlySpace }
        return space
    }
}

/// Tells a writer where a moved row went (`TableError.movedAway` into `itemMoved`) only when it
/// is theirs to know: their own namespace, or a space they are a member of. Anyone else meets a
/// plain 404, so a move never reveals another account's namespace.
struct MovedItemDisclosure {
    let spaces: SpaceStore

    func disclose(_ error: TableError, to account: String) async -> TableError {
        guard case .movedAway(let namespace, let id) = error else { return error }
        if !account.isEmpty, namespace == account { return .itemMoved(space: nil, id: id) }
        if !account.isEmpty, (try? await spaces.role(of: account, in: namespace)) != nil { return .itemMoved(space: namespace, id: id) }
        return TableError.itemNotFound
    }

    /// `body`, its moved-row errors disclosed as above.
    func disclosing<T>(to account: String, _ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as TableError {
            throw await disclose(error, to: account)
        }
    }

    /// A batch's results, each moved-row error disclosed as above.
    func disclose(_ results: [BatchResult], to account: String) async -> [BatchResult] {
        var disclosed = results
        for index in results.indices {
            if let failure = results[index].failure, case .movedAway = failure {
                disclosed[index] = BatchResult(await disclose(failure, to: account))
            }
        }
        return disclosed
    }
}
