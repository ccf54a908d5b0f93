import HTTPTypes
import Hummingbird
import NIOCore
import TableProtocol

/// Builds JSON responses with the protocol's headers.
enum JSONResponse {
    static func make(_ status: HTTPResponse.Status, _ body: String, headers extra: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// A single item with its `ETag`.
    static func item(_ item: StoredItem, status: HTTPResponse.Status = .ok) -> Response {
        make(status, JSONWriter.string(.object(item.properties)), headers: [.eTag: ETag.quote(item.version)])
    }

    /// `{"error": message}`.
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        make(status, JSONWriter.string(.object(JSONObject([("error", .string(message))]))))
    }
}
