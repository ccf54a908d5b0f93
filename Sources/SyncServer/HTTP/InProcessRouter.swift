import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded

/// The server's routes and middleware answering requests in this process, with no socket: the
/// same application `run` serves, one request at a time. fuzz-router drives every route with
/// hostile requests through it. A change feed's reply is cut at its first write, as a client
/// that goes away would cut it.
public final class InProcessRouter: Sendable {
    private let built: SyncServerApplication.Built
    private let responder: RouterResponder<TableRequestContext>
    private let logger: Logger

    private init(built: SyncServerApplication.Built, responder: RouterResponder<TableRequestContext>, logger: Logger) {
        self.built = built
        self.responder = responder
        self.logger = logger
    }

    /// Opens the database of `configuration` (migrating it) and builds the routes, with `faces`;
    /// `logger` nil logs nothing short of a critical error.
    public static func open(_ configuration: ServerConfiguration, faces: [any ServerFace] = [], logger: Logger? = nil) async throws -> InProcessRouter {
        let logger = logger ?? {
            var quiet = Logger(label: "sync-server")
            quiet.logLevel = .critical
            return quiet
        }()
        let built = try await SyncServerApplication.build(configuration, faces: faces, logger: logger)
        return InProcessRouter(built: built, responder: built.application.responder, logger: logger)
    }

    /// The accounts of the server's database.
    public var users: UserStore { built.users }

    /// One reply: its status, header fields and body (none for a change feed).
    public struct Reply: Sendable {
        /// The status code.
        public var status: Int
        /// The header fields, in order.
        public var headers: [(name: String, value: String)]
        /// The body.
        public var body: [UInt8]
    }

    /// Answers one request. `method` must be an HTTP token and `path` a request target, as an
    /// HTTP/1.1 parser would have let through; anything else is nil (a socket's parser answers 400
    /// before any route runs). A route that throws an error no middleware maps answers 500, as
    /// Hummingbird's server does.
    public func respond(method: String, path: String, headers: [(String, String)], body: [UInt8]) async -> Reply? {
        // A request target is visible ASCII (RFC 9112 §3.2; NIO's parser refuses the rest).
        guard let method = HTTPRequest.Method(method), !path.isEmpty, path.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
        var fields = HTTPFields()
        for (name, value) in headers {
            guard let name = HTTPField.Name(name), value.utf8.allSatisfy({ $0 != 0x0A && $0 != 0x0D && $0 != 0 }) else { return nil }
            fields.append(HTTPField(name: name, value: value))
        }
        fields[.contentLength] = String(body.count)
        let request = Request(
            head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: path, headerFields: fields),
            body: Hummingbird.RequestBody(buffer: ByteBuffer(bytes: body)))
        // A channel with no socket, for the context (Hummingbird's router tests use the same);
        // left open, it would keep its pipeline alive: closed once answered.
        let channel = NIOAsyncTestingChannel()
        let reply = await respond(to: request, context: TableRequestContext(source: .init(channel: channel, logger: logger)))
        _ = try? await channel.finish()
        return reply
    }

    private func respond(to request: Request, context: TableRequestContext) async -> Reply {
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            return Reply(status: Int(error.status.code), headers: [], body: [])
        } catch {
            return Reply(status: 500, headers: [], body: [])
        }
        let writer = CollectingWriter(limit: response.headers[.contentType] == "text/event-stream" ? 0 : Int.max)
        do {
            try await response.body.write(writer)
        } catch is CollectingWriter.Enough {
        } catch {
            // A body that fails while being written ends the connection; the status has been sent.
        }
        return Reply(status: Int(response.status.code), headers: response.headers.map { ($0.name.canonicalName, $0.value) }, body: writer.bytes)
    }

    /// Closes the database.
    public func close() async { await built.close() }
}

/// Gathers a reply's body, and stops (as a departing client) after `limit` writes.
private final class CollectingWriter: ResponseBodyWriter {
    struct Enough: Error {}
    let limit: Int
    var writes = 0
    var bytes: [UInt8] = []

    init(limit: Int) { self.limit = limit }

    func write(_ buffer: ByteBuffer) async throws {
        guard writes < limit else { throw Enough() }
        writes += 1
        bytes += buffer.readableBytesView
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
