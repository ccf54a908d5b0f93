import HTTPTypes
import Hummingbird
import NIOCore
import TableProtocol

/// Builds JSON responses with the protocol's headers.
enum JSONResponse {
    static func make(_ status: HTTPResponse.Status, _ body: String, headers extra: HTTPFields = [:]) -> Response {
        make(status, buffer: ByteBuffer(string: body), headers: extra)
    }

    /// A JSON value as the body.
    static func make(_ status: HTTPResponse.Status, _ body: JSONValue, headers extra: HTTPFields = [:]) -> Response {
        make(status, buffer: ByteBuffer(bytes: JSONWriter.bytes(body)), headers: extra)
    }

    /// JSON text already encoded.
    static func make(_ status: HTTPResponse.Status, bytes: [UInt8], headers extra: HTTPFields = [:]) -> Response {
        make(status, buffer: ByteBuffer(bytes: bytes), headers: extra)
    }

    private static func make(_ status: HTTPResponse.Status, buffer: ByteBuffer, headers extra: HTTPFields) -> Response {
        // `private`: an account's rows must not be kept by a shared cache (a proxy in front) and
        // handed to another account; the token travels in `X-ZUMO-AUTH`, which no cache knows.
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "private"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: buffer))
    }

    /// A single item with its `ETag`.
    static func item(_ item: StoredItem, status: HTTPResponse.Status = .ok) -> Response {
        make(status, .object(item.properties), headers: [.eTag: ETag.quote(item.version)])
    }

    /// `{"error": message}`.
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        make(status, .object(JSONObject([("error", .string(message))])))
    }
}
