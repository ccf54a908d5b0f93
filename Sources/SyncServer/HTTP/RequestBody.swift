import Hummingbird
import NIOCore
import TableProtocol

/// Reads request bodies within the size limit.
enum RequestBody {
    /// The request body as a JSON object (a missing Content-Type is read as JSON).
    static func object(_ request: Request, maxBytes maxBodyBytes: Int) async throws -> JSONObject {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBodyBytes)
        } catch is NIOTooManyBytesError {
            throw TableError.payloadTooLarge(maxBodyBytes)
        }
        if buffer.readableBytes == 0 { return JSONObject() }
        let value: JSONValue
        do {
            value = try buffer.withUnsafeReadableBytes { try JSONValue.parse(bytes: $0) }
        } catch let error as JSONParseError {
            throw TableError.badRequest("The request body is not valid JSON: \(error)")
        } catch {
            throw TableError.badRequest("The request body is not valid JSON")
        }
        guard case .object(let object) = value else { throw TableError.badRequest("The request body must be a JSON object") }
        return object
    }
}
