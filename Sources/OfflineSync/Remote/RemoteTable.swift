import Foundation
import TableProtocol

/// Online access to one server table: every call is a request.
public struct RemoteTable: Sendable {
    /// The client it talks through.
    public let client: SyncClient
    /// The table's name.
    public let name: String
    /// The shared space it reaches (`?space=ID`); nil: the account's own namespace.
    public var space: String? = nil

    /// Feature tags sent on plain table calls.
    public static let tableFeatures = "TU"

    /// Inserts an item; answers the stored item (201).
    public func insert(_ item: JSONObject, features: String = RemoteTable.tableFeatures) async throws -> JSONObject {
        let reply = try await send("POST", path: "tables/\(name)", body: Self.clientBody(item), features: features)
        return try Self.written(try Self.object(from: reply, expecting: [200, 201]), id: item[SystemProperty.id]?.stringValue, reply)
    }

    /// Updates an item; sends its `version` as `If-Match` when it has one.
    public func update(_ item: JSONObject, features: String = RemoteTable.tableFeatures) async throws -> JSONObject {
        let id = try Self.id(of: item)
        let version = item[SystemProperty.version]?.stringValue
        let reply = try await send("PATCH", path: itemPath(id), body: Self.clientBody(item), ifMatch: version.map(ETag.quote),
                                   features: version == nil ? features : Self.withConcurrency(features))
        return try Self.written(try Self.object(from: reply, expecting: [200]), id: id, reply)
    }

    /// Deletes an item, checking its `version` when it has one; answers the deleted item if the server sends it.
    @discardableResult
    public func delete(_ item: JSONObject, features: String = RemoteTable.tableFeatures) async throws -> JSONObject? {
        let id = try Self.id(of: item)
        let version = item[SystemProperty.version]?.stringValue
        let reply = try await send("DELETE", path: itemPath(id), ifMatch: version.map(ETag.quote),
                                   features: version == nil ? features : Self.withConcurrency(features))
        if reply.status == 204 { return nil }
        return try Self.written(try Self.object(from: reply, expecting: [200]), id: id, reply)
    }

    /// Restores a soft-deleted item (`POST /tables/{t}/{id}`), checking `version` when given.
    public func undelete(id: String, version: String?, features: String = RemoteTable.tableFeatures) async throws -> JSONObject {
        let reply = try await send("POST", path: itemPath(id), ifMatch: version.map(ETag.quote),
                                   features: version == nil ? features : Self.withConcurrency(features))
        return try Self.written(try Self.object(from: reply, expecting: [200, 201]), id: id, reply)
    }

    /// The server's row for an id, soft-deleted ones included; nil when it has none.
    public func readIncludingDeleted(id: String) async throws -> JSONObject? {
        var query = SyncQuery(table: name).filter(Field(SystemProperty.id.rawValue) == .string(id)).limit(1)
        query.parameters["__includeDeleted"] = "true"
        return try await self.query(query).result.items.first
    }

    /// Reads one item by id.
    public func read(id: String) async throws -> JSONObject {
        try Self.object(from: try await send("GET", path: itemPath(id), features: Self.tableFeatures), expecting: [200])
    }

    /// One page of a query, and the next page's URL when the server says more remain.
    public func query(_ query: SyncQuery) async throws -> (result: SyncQueryResult, next: URL?) {
        try await page(url(query: query.checked().queryItems), features: "TQ")
    }

    /// The table's URL with query items (and the space).
    func url(query: [URLQueryItem]) -> URL { client.url("tables/\(name)", query: query + spaceItems) }

    /// `space=ID` when the table is a shared space's.
    var spaceItems: [URLQueryItem] { space.map { [URLQueryItem(name: "space", value: $0)] } ?? [] }

    /// Every page of a query, following `Link` headers (at most `maxPages`).
    public func queryAll(_ query: SyncQuery, maxPages: Int = 1000) async throws -> SyncQueryResult {
        var (result, next) = try await self.query(query)
        var pages = 1
        while let url = next, pages < maxPages {
            let page = try await page(url, features: "TQ")
            result.items += page.result.items
            next = page.next
            pages += 1
        }
        return result
    }

    /// Fetches one page at an absolute URL (one that shows every write up to `readAfter`).
    func page(_ url: URL, features: String, readAfter: String? = nil) async throws -> (result: SyncQueryResult, next: URL?) {
        let reply = try await client.send("GET", url: url, features: features, readAfter: readAfter)
        guard reply.status == 200 else { throw Self.error(from: reply) }
        let result = try Self.queryResult(from: reply)
        let next = reply.header("link").flatMap(Self.nextLink)
        return (result, next)
    }

    func send(_ method: String, path: String, body: JSONObject? = nil, ifMatch: String? = nil, features: String) async throws -> HTTPReply {
        try await client.send(method, url: client.url(path, query: spaceItems), body: body, ifMatch: ifMatch, features: features)
    }

    func itemPath(_ id: String) -> String { "tables/\(name)/\(PercentEncoding.pathSegment(id))" }

    /// The item without the properties only the server sets, and without the local space column.
    static func clientBody(_ item: JSONObject) -> JSONObject {
        var body = item
        for property in SystemProperty.serverManaged { body[property] = nil }
        body[SharedSpace.column] = nil
        return body
    }

    static func withConcurrency(_ features: String) -> String { features.contains("OC") ? features : "OC," + features }

    static func id(of item: JSONObject) throws -> String {
        guard let id = item[SystemProperty.id]?.stringValue, !id.isEmpty else { throw SyncError(.invalidParameter, "The item has no id") }
        return id
    }

    /// What a write's reply means, read as `insert`, `update` and `delete` read their own: the
    /// server's item, nil for a delete without one (a 404 delete counts: the item is gone either
    /// way, unless it moved), or the protocol's error.
    static func writeResult(_ reply: HTTPReply, for type: TableOperationType, id: String) throws -> JSONObject? {
        switch type {
        case .insert: return try written(try object(from: reply, expecting: [200, 201]), id: id, reply)
        case .update: return try written(try object(from: reply, expecting: [200]), id: id, reply)
        case .delete:
            // A 404 is gone either way, but a moved row is not: the deletion follows it there.
            if reply.status == 404, error(from: reply).code == .itemMoved { throw error(from: reply) }
            return reply.status == 204 || reply.status == 404 ? nil : try written(try object(from: reply, expecting: [200]), id: id, reply)
        }
    }

    /// A write's reply, which must be the item written: a JSON object for another id, or with
    /// none (a login page's JSON behind a redirect, a proxy's `{"ok": true}`), taken as the
    /// write's success, dropped the change and stored a row that was no item. Ids match in
    /// any letter case, as the store keys them.
    static func written(_ object: JSONObject, id expected: String?, _ reply: HTTPReply) throws -> JSONObject {
        guard let expected else { return object }
        guard let id = object[SystemProperty.id]?.stringValue, id == expected || id.lowercased() == expected.lowercased() else {
            throw SyncError(.httpError, "The server's reply is not the item written ('\(expected.prefix(64))'): is the server URL right?",
                            statusCode: reply.status)
        }
        return object
    }

    /// The item in a reply with one of the expected statuses, or the protocol's error.
    static func object(from reply: HTTPReply, expecting statuses: Set<Int>) throws -> JSONObject {
        guard statuses.contains(reply.status) else { throw error(from: reply) }
        guard let object = try? reply.json().objectValue else {
            throw SyncError(.httpError, "The server's reply is not a JSON object", statusCode: reply.status)
        }
        return object
    }

    static func queryResult(from reply: HTTPReply) throws -> SyncQueryResult {
        let date = reply.header("date").flatMap(HTTPDate.parse)
        switch try? JSONText.decode(reply.body) {
        case .array(let rows)?:
            return SyncQueryResult(items: rows.compactMap(\.objectValue), serverDate: date)
        case .object(let wrapped)?:
            guard case .array(let rows)? = wrapped["results"] else { fallthrough }
            return SyncQueryResult(items: rows.compactMap(\.objectValue), totalCount: wrapped["count"]?.wholeNumberValue.flatMap { $0 >= 0 ? $0 : nil },
                                   serverDate: date)
        default:
            throw SyncError(.httpError, "The server's reply is not a query result", statusCode: reply.status)
        }
    }

    /// `Link: <url>; rel=next` or `Link: url; rel=next`.
    static func nextLink(_ header: String) -> URL? {
        for part in header.split(separator: ",") where part.contains("rel=next") {
            let url = part.split(separator: ";").first.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " <>")) }
            if let url, let parsed = URL(string: url) { return parsed }
        }
        return nil
    }

    /// The protocol error a failed reply stands for.
    static func error(from reply: HTTPReply) -> SyncError {
        let body = try? reply.json()
        let object = body?.objectValue
        if reply.status == 404, object?["error"]?.stringValue == nil {
            // Not the protocol's 404 (`{"error": …}`): a web page, a wrong URL. Read as "gone",
            // it counted deletes as done and edits as deleted on the server; it is a server not
            // reached, so every change stays queued.
            let notTheProtocol = TransportError(description: "the server answered 404 with a page that is not the sync protocol's: is the server URL right?")
            return SyncError(.httpError, "The server answered 404 (\(notTheProtocol))", underlying: notTheProtocol)
        }
        let message = object?["error"]?.stringValue ?? "The server answered \(reply.status)"
        let serverItem = (reply.status == 409 || reply.status == 412) && object?[SystemProperty.id] != nil ? object : nil
        let code: SyncErrorCode = switch (reply.status, object?["code"]?.stringValue.flatMap(ProtocolErrorCode.init)) {
        case (412, _): .preconditionFailed
        case (401, _): .authenticationFailed
        case (404, .spaceNotFound): .spaceNotFound
        case (403, .readOnlySpace): .readOnlySpace
        case (404, .itemMoved) where object?["movedTo"]?.objectValue != nil: .itemMoved
        default: .httpError
        }
        var error = SyncError(code, message, statusCode: reply.status, serverItem: serverItem)
        if code == .itemMoved {
            error.movedToSpace = object?["movedTo"]?.objectValue?["space"]?.stringValue
            error.movedToId = object?["movedTo"]?.objectValue?["id"]?.stringValue
        }
        return error
    }
}
