import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TableProtocol

/// `GET /tables/{table}/changes` with `Accept: text/event-stream`: a Server-Sent Events stream that
/// says which of the caller's rows changed, as soon as each write commits.
///
/// Every event's id is the write's `updatedAt`, strictly increasing per table in commit order, so a
/// client that reconnects with `Last-Event-ID` (or `?since=`) is first replayed every change it
/// missed. The same path without that `Accept` still reads an item whose id is "changes".
struct ChangeFeedRoute {
    let service: TableService
    let hub: ChangeHub
    /// The most change feeds one account may hold open in this process (`--max-feeds-per-account`).
    let maxFeedsPerAccount: Int
    /// Lower-cased names of the tables a space's viewers do not read: the combined feed names no
    /// change of theirs to a viewer (`ServerConfiguration.writersOnlyTables`).
    var writersOnly: Set<String> = []

    /// Changes replayed on reconnect before a `reset` event tells the client to pull instead.
    static let replayLimit = 1_000

    static func wantsFeed(_ request: Request) -> Bool {
        request.headers[.accept]?.lowercased().contains("text/event-stream") ?? false
    }

    func respond(_ request: Request, table rawTable: String, owner: String, account: String, resolver: NamespaceResolver) async throws -> Response {
        let table = try TableName.key(rawTable)
        if service.schemas.isFixed, try await service.schemas.schema(of: table, in: owner) == nil { throw TableError.tableNotFound }
        let since = try Self.since(request)
        // Subscribe before reading the backlog: a write committed in between is in one or the other
        // (both, at worst, and the duplicate is skipped by its id).
        let stream = try subscribe(table: table, owners: [owner], account: account)
        var backlog: [ChangeNotice] = []
        if let since { backlog = try await service.changes(table: table, since: since, owner: owner, limit: Self.replayLimit) }
        let replay = backlog
        let headers = request.headers
        let space: String? = request.uri.queryParameters.get(NamespaceResolver.spaceParameter).map { String($0) }
        let body = ResponseBody { writer in
            var last = since ?? ""
            try await writer.write(ByteBuffer(string: "retry: 1000\n: connected\n\n"))
            for notice in replay {
                try await writer.write(notice.tableFeedEvent)
                last = notice.updatedAt
            }
            if replay.count == Self.replayLimit {
                try await writer.write(ByteBuffer(string: "event: reset\ndata: {}\n\n"))
            }
            try await Self.relay(stream, to: &writer) { notice, event in
                guard notice.updatedAt > last else { return nil }
                last = notice.updatedAt
                return event
            } heartbeat: {
                // A token that expired or was revoked, or a membership that ended, ends the feed, as it
                // would end any request.
                (try? await resolver.resolve(headers: headers, space: space))?.namespace == owner ? .goOn : .end
            }
        }
        return Self.eventStream(body)
    }

    /// `GET /changes` with `Accept: text/event-stream`: every committed write to any table of
    /// the caller's own namespace and of each shared space it is a member of, over one
    /// connection (a device with ten shared lists holds one feed, not ten per table). Events
    /// carry no id: each says which table and space changed, and a client pulls on (re)connect
    /// anyway, which is its catch-up. When the account joins or leaves a space, or its role in
    /// one changes, the stream says `event: spaces` and ends at once (`ChangeHub.endFeeds`, in
    /// every process), or failing that at the next heartbeat, so the client pulls its spaces and
    /// roles at once and reconnects with the new set.
    func respondAll(_ request: Request, account: String, resolver: NamespaceResolver) async throws -> Response {
        let namespaces = try await Self.namespaces(of: account, resolver)
        // A role change ends the feed (`membershipChanged`), so the roles read now hold for it.
        let viewing = writersOnly.isEmpty || account.isEmpty ? [] : Set(try await resolver.spaces.spaces(of: account).filter { !$0.role.canWrite }.map(\.id))
        let stream = try subscribe(table: nil, owners: namespaces, account: account)
        let headers = request.headers
        let writersOnly = self.writersOnly
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: "retry: 1000\n: connected\n\n"))
            try await Self.relay(stream, to: &writer) { notice, _ in
                if viewing.contains(notice.owner), writersOnly.contains(notice.table) { return nil }
                return Self.namedEvent(notice, space: notice.owner == account ? nil : notice.owner)
            } heartbeat: {
                guard let current = try? await resolver.resolve(headers: headers, space: nil), current.account == account else { return .end }
                return (try? await Self.namespaces(of: account, resolver)) == namespaces ? .goOn : .spacesChanged
            }
        }
        return Self.eventStream(body)
    }

    /// What a heartbeat finds of the caller.
    private enum HeartbeatCheck { case goOn, end, spacesChanged }

    /// Writes the hub's signals until the stream ends (the hub ends every feed when the server
    /// shuts down, `FeedShutdown`) or the feed must: each change as `event` writes it (nil: skip
    /// it), a heartbeat while `heartbeat` lets the feed go on, and `event: spaces` when the
    /// account's spaces or roles changed.
    private static func relay(_ stream: AsyncStream<FeedSignal>, to writer: inout any ResponseBodyWriter,
                              event: (ChangeNotice, ByteBuffer) -> ByteBuffer?, heartbeat: () async -> HeartbeatCheck) async throws {
        feed: for await signal in stream {
            switch signal {
            case .change(let notice, let tableEvent):
                if let bytes = event(notice, tableEvent) { try await writer.write(bytes) }
            case .heartbeat:
                switch await heartbeat() {
                case .goOn: try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                case .end: break feed
                case .spacesChanged:
                    try await writer.write(spacesEvent)
                    break feed
                }
            case .membershipChanged:
                try await writer.write(spacesEvent)
                break feed
            }
        }
        try await writer.finish(nil)
    }

    /// Tells the client its spaces or roles changed: it pulls them at once.
    private static var spacesEvent: ByteBuffer { ByteBuffer(string: "event: spaces\ndata: {}\n\n") }

    /// An event stream's response: not cached, not buffered by a proxy.
    private static func eventStream(_ body: ResponseBody) -> Response {
        Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", accelBuffering: "no"], body: body)
    }

    /// The account's own namespace and its spaces', sorted.
    private static func namespaces(of account: String, _ resolver: NamespaceResolver) async throws -> [String] {
        guard !account.isEmpty else { return [account] }
        return [account] + (try await resolver.spaces.spaceIds(of: account))
    }

    /// A hub subscription within the account's feed limit (429 beyond it).
    private func subscribe(table: String?, owners: [String], account: String) throws -> AsyncStream<FeedSignal> {
        guard let stream = hub.subscribe(table: table, owners: owners, account: account, maxPerAccount: maxFeedsPerAccount) else {
            throw TableError.busy(
                "This account has \(maxFeedsPerAccount) change feeds open on this server, the most it may hold; close one and try again", retryAfter: 30)
        }
        return stream
    }

    /// A change of the combined feed: its table and space (null: the account's own) besides the row.
    private static func namedEvent(_ notice: ChangeNotice, space: String?) -> ByteBuffer {
        let data = JSONObject([("table", .string(notice.table)), ("space", space.map(JSONValue.string) ?? .null), ("id", .string(notice.id)),
                               ("updatedAt", .string(notice.updatedAt)), ("deleted", .bool(notice.deleted))])
        return ByteBuffer(bytes: Array("event: change\ndata: ".utf8) + JSONWriter.bytes(.object(data)) + Array("\n\n".utf8))
    }

    /// `Last-Event-ID` or `?since=`: an ISO-8601 `updatedAt`.
    private static func since(_ request: Request) throws -> String? {
        let raw = request.headers[lastEventID] ?? request.uri.queryParameters.get("since")
        guard let raw, !raw.isEmpty else { return nil }
        guard let date = FilterDateTime(iso8601: raw) else {
            throw TableError.badRequest("Invalid Last-Event-ID or since '\(raw)': expected an ISO-8601 date such as 2026-01-01T00:00:00.000Z")
        }
        return date.isoString
    }

    private static let lastEventID = HTTPField.Name("Last-Event-ID")!
    /// Tells nginx not to buffer the stream.
    private static let accelBuffering = HTTPField.Name("X-Accel-Buffering")!
}
