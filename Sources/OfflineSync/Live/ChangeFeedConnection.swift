import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// Why a change feed could not be listened to.
public enum ChangeFeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server has no change feed for the table (404, or an answer that is not an event stream).
    case unavailable(status: Int)
    /// The server refused the access token (401).
    case unauthorized
    /// Any other HTTP status.
    case status(Int)
    /// The connection failed, timed out or ended.
    case connection(String)

    public var description: String {
        switch self {
        case .unavailable(let status): return "the server has no change feed (HTTP \(status))"
        case .unauthorized: return "the server refused the access token (HTTP 401)"
        case .status(let status): return "the change feed answered HTTP \(status)"
        case .connection(let text): return text
        }
    }
}

/// One long-lived change-feed request (`GET /tables/{table}/changes`, or the combined
/// `GET /changes`), read as it streams.
///
/// URLSession on Linux hands a body over only once it is complete, so the feed goes through
/// AsyncHTTPClient, which streams. Its read timeout is the silence watchdog: heartbeats arrive
/// every ~15 s, so a connection quiet for longer than `silenceTimeout` is dead and is dropped.
struct ChangeFeedConnection: Sendable {
    let client: SyncClient
    /// The feed's path below the server URL.
    let path: String
    let silenceTimeout: TimeInterval

    /// The feed of one table of the account's own namespace.
    init(client: SyncClient, table: String, silenceTimeout: TimeInterval) {
        self.init(client: client, path: "tables/\(PercentEncoding.pathSegment(table))/changes", silenceTimeout: silenceTimeout)
    }

    /// The feed at `path` (the combined feed's, from the capabilities).
    init(client: SyncClient, path: String, silenceTimeout: TimeInterval) {
        self.client = client
        self.path = path.hasPrefix("/") ? String(path.dropFirst()) : path
        self.silenceTimeout = silenceTimeout
    }

    /// Listens until the stream ends or fails; `onOpen` runs once the server accepted the feed.
    /// Returns normally when the server closed the stream; throws `ChangeFeedError` otherwise.
    func listen(lastEventId: String?, onOpen: @Sendable () async -> Void,
                onEvent: @Sendable (ServerSentEvent) async -> Void) async throws {
        var request = HTTPClientRequest(url: client.url(path).absoluteString)
        for (name, value) in client.protocolHeaders(features: "OL", accept: "text/event-stream") {
            request.headers.replaceOrAdd(name: name, value: value)
        }
        request.headers.replaceOrAdd(name: "Cache-Control", value: "no-cache")
        if let lastEventId { request.headers.replaceOrAdd(name: "Last-Event-ID", value: lastEventId) }
        let http = SharedHTTPClients.client(certificateAuthorityFile: client.certificateAuthorityFile,
                                            connectTimeout: .seconds(10), readTimeout: .milliseconds(Int64(silenceTimeout * 1000)))
        do {
            let response = try await http.execute(request, deadline: .distantFuture)
            try Self.check(response)
            await onOpen()
            var parser = ServerSentEventParser()
            for try await chunk in response.body {
                for event in parser.feed(chunk.readableBytesView) { await onEvent(event) }
            }
        } catch let error as ChangeFeedError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw ChangeFeedError.connection("\(error)")
        }
    }

    private static func check(_ response: HTTPClientResponse) throws {
        let status = Int(response.status.code)
        switch status {
        case 200:
            let type = response.headers.first(name: "content-type") ?? ""
            guard type.lowercased().hasPrefix("text/event-stream") else { throw ChangeFeedError.unavailable(status: status) }
        case 401: throw ChangeFeedError.unauthorized
        case 404, 405, 406, 501: throw ChangeFeedError.unavailable(status: status)
        default: throw ChangeFeedError.status(status)
        }
    }
}
