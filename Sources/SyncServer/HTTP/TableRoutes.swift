import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TableProtocol

/// The table protocol's routes over a `TableService`.
struct TableRoutes {
    let service: TableService
    let authenticator: Authenticator
    /// Each request's namespace: the account's own, or a shared space (`?space=`).
    let resolver: NamespaceResolver
    let maxBodyBytes: Int
    /// `https` when the server itself speaks TLS, else `http`.
    let scheme: String
    /// The change feed served at `/tables/{table}/changes`.
    /// Nil when the server runs without change feeds.
    let feed: ChangeFeedRoute?
    /// Lower-cased names of the tables a space's viewers do not read (`ServerConfiguration.writersOnlyTables`).
    let writersOnly: Set<String>

    func register(on router: Router<TableRequestContext>) {
        router.get("/health") { _, _ in JSONResponse.make(.ok, #"{"status":"ok"}"#) }
        let capabilities = CapabilitiesRoute.document(maxBodyBytes: maxBodyBytes, maxTop: service.limits.maxTop, changeFeed: feed != nil,
                                                      accountsRequired: authenticator.required)
        router.get("/capabilities") { _, _ in JSONResponse.make(.ok, capabilities) }
        if let feed {
            router.group("changes").add(middleware: NamespaceMiddleware(resolver: resolver)).get { request, context in
                guard ChangeFeedRoute.wantsFeed(request) else { throw TableError.badRequest("GET /changes is a change feed: send Accept: text/event-stream") }
                return try await feed.respondAll(request, account: context.account, resolver: resolver)
            }
        }
        let tables = router.group("tables").add(middleware: NamespaceMiddleware(resolver: resolver))
        tables.get(":table") { request, context in try await query(request, context) }
        // A table name never starts with `$`, so this path cannot hide a table.
        let moves = MovedItemDisclosure(spaces: resolver.spaces)
        tables.post("$batch") { request, context in
            let batch = try BatchRoute.request(from: try await body(request))
            let results = try await service.batch(batch.operations, owner: context.owner, writer: context.accountName)
            return BatchRoute.response(await moves.disclose(results, to: context.account), to: batch)
        }
        let move = MoveRoute(service: service, spaces: resolver.spaces)
        tables.post("$move") { request, context in try await move.respond(try await body(request), context: context) }
        tables.post(":table") { request, context in
            let item = try await service.insert(table: try table(context), body: try await body(request), owner: context.owner, writer: context.accountName)
            return JSONResponse.item(item, status: .created)
        }
        tables.get(":table/:id") { request, context in
            if try hidden(context) { throw TableError.itemNotFound }
            if let feed, context.parameters.get("id") == "changes", ChangeFeedRoute.wantsFeed(request) {
                return try await feed.respond(request, table: try table(context), owner: context.owner, account: context.account, resolver: resolver)
            }
            return JSONResponse.item(try await service.read(
                table: try table(context), id: try id(context), owner: context.owner, readAfter: try readAfter(request)))
        }
        tables.patch(":table/:id") { request, context in
            let item = try await moves.disclosing(to: context.account) {
                try await service.update(table: try table(context), id: try id(context), body: try await body(request),
                                         ifMatch: request.headers[.ifMatch], owner: context.owner, writer: context.accountName)
            }
            return JSONResponse.item(item)
        }
        tables.delete(":table/:id") { request, context in
            JSONResponse.item(try await moves.disclosing(to: context.account) {
                try await service.delete(table: try table(context), id: try id(context), ifMatch: request.headers[.ifMatch],
                                         owner: context.owner, writer: context.accountName)
            })
        }
        tables.post(":table/:id") { request, context in
            let item = try await service.undelete(
                table: try table(context), id: try id(context), ifMatch: request.headers[.ifMatch], owner: context.owner, writer: context.accountName)
            return JSONResponse.item(item, status: .created)
        }
    }

    /// `X-Read-After: <updatedAt>` (ms since 1970), or nil; 400 when it is not a date.
    private func readAfter(_ request: Request) throws -> Int64? {
        guard let value = request.headers[.readAfter] else { return nil }
        guard let ms = AnnouncedStamps.milliseconds(value) else {
            throw TableError.badRequest("X-Read-After must be an ISO 8601 date-time such as 2026-11-25T10:00:00.000Z, not '\(value.prefix(64))'")
        }
        return ms
    }

    private func query(_ request: Request, _ context: TableRequestContext) async throws -> Response {
        // The space is the namespace, not part of the query (plans are cached by the query's text).
        let queryString = context.role == nil ? request.uri.query ?? "" : QueryString.removing([NamespaceResolver.spaceParameter], from: request.uri.query)
        if try hidden(context) { return Self.response(try service.emptyPage(queryString: queryString)) }
        let page = try await service.query(table: try table(context), queryString: queryString, owner: context.owner, readAfter: try readAfter(request))
        return Self.response(page, nextPage: page.next.map { nextPageURL(request, top: $0.top, skip: $0.skip) })
    }

    /// A page as the protocol answers it: the rows, with their count when asked, and the next page's link.
    private static func response(_ page: QueryPage, nextPage: String? = nil) -> Response {
        var body = page.itemsJSON
        if let count = page.totalCount {
            body = Array(#"{"results":"#.utf8) + body + Array(#","count":"#.utf8)
            JSONWriter.writeInteger(Int64(count), into: &body)
            body.append(UInt8(ascii: "}"))
        }
        var headers: HTTPFields = [:]
        if let nextPage { headers[.link] = "\(nextPage); rel=next" }
        return JSONResponse.make(.ok, bytes: body, headers: headers)
    }

    /// Whether the request is a viewer's of a table only writers read.
    private func hidden(_ context: TableRequestContext) throws -> Bool {
        guard let role = context.role, !role.canWrite else { return false }
        return writersOnly.contains(try table(context).lowercased())
    }

    /// The absolute URL of the next page: the same query with `$top` and `$skip` moved on.
    private func nextPageURL(_ request: Request, top: Int, skip: Int) -> String {
        var query = QueryString.removing(["$top", "$skip"], from: request.uri.query)
        if !query.isEmpty { query += "&" }
        query += "$top=\(top)&$skip=\(skip)"
        let host = request.head.authority ?? "localhost"
        return "\(linkScheme(request))://\(host)\(request.uri.path)?\(query)"
    }

    /// Behind a reverse proxy that terminates TLS the request arrives as plain HTTP, yet the client
    /// must follow the link over HTTPS: the proxy says so in `X-Forwarded-Proto`. Trusting it is
    /// harmless, as it only shapes the link handed back to the same requester.
    private func linkScheme(_ request: Request) -> String {
        let forwarded = request.headers[Self.forwardedProto]?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces).lowercased()
        return forwarded == "https" || forwarded == "http" ? forwarded! : scheme
    }

    private static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!

    private func body(_ request: Request) async throws -> JSONObject {
        try await RequestBody.object(request, maxBytes: maxBodyBytes)
    }

    private func table(_ context: TableRequestContext) throws -> String {
        try context.parameters.require("table")
    }

    private func id(_ context: TableRequestContext) throws -> String {
        let raw = try context.parameters.require("id")
        let id = raw.removingPercentEncoding ?? raw
        if let problem = ItemID.validate(id) { throw TableError.badRequest("Invalid id: \(problem)") }
        return id
    }
}
