import Foundation
import TableProtocol

/// One HTTP request as the SDK sends it.
public struct HTTPRequestSpec: Sendable {
    /// `GET`, `POST`, `PATCH` or `DELETE`.
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header fields.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String], body: Data?) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One HTTP reply.
public struct HTTPReply: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields, names lower-cased.
    public var headers: [String: String]
    /// The body bytes.
    public var body: Data
    /// The body already parsed, when it came inside a larger JSON document (a batch reply).
    var parsedBody: JSONValue?

    /// Creates a reply (header names are lower-cased).
    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    /// The body as JSON, parsed once.
    func json() throws -> JSONValue { try parsedBody ?? JSONText.decode(body) }

    /// The header value for a name in any case.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// The request could not be carried out: refused, timed out, reset, DNS.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// What the HTTP stack said.
    public var description: String
    /// True when the connection failed because the server's TLS certificate is not trusted.
    public var isUntrustedCertificate: Bool

    /// Creates an error with the stack's message.
    public init(description: String, isUntrustedCertificate: Bool = false) {
        self.description = description
        self.isUntrustedCertificate = isUntrustedCertificate
    }
}

/// Sends HTTP requests; the SDK's only network dependency, replaceable to force rare faults.
public protocol HTTPTransport: Sendable {
    /// Sends a request; throws `TransportError` when no reply arrives.
    func send(_ request: HTTPRequestSpec) async throws -> HTTPReply
}
