import Foundation
import Synchronization
import TableProtocol

/// Settings of a `SyncClient`.
public struct SyncClientConfiguration: Sendable {
    /// Seconds before a request times out.
    public var timeout: TimeInterval = 30
    /// Sent as `X-ZUMO-INSTALLATION-ID`; by default made once and kept under `$XDG_DATA_HOME`.
    public var installationID: String?
    /// How requests travel; by default `AsyncHTTPClientTransport`.
    public var transport: (any HTTPTransport)?
    /// Where the access token sent with every request comes from; nil sends none.
    public var authentication: (any AuthenticationProvider)?
    /// A PEM file of certificate authorities to trust besides the system's (e.g. a self-signed server's); used when `transport` is nil.
    public var certificateAuthorityFile: String?

    /// Default settings.
    public init(timeout: TimeInterval = 30, installationID: String? = nil, transport: (any HTTPTransport)? = nil,
                authentication: (any AuthenticationProvider)? = nil, certificateAuthorityFile: String? = nil) {
        self.timeout = timeout
        self.installationID = installationID
        self.transport = transport
        self.authentication = authentication
        self.certificateAuthorityFile = certificateAuthorityFile
    }
}

/// Talks to one table-protocol server: hands out remote tables and carries the protocol headers.
public final class SyncClient: Sendable {
    /// The server's base URL.
    public let serverURL: URL
    /// The installation id sent with every request.
    public let installationID: String
    let transport: any HTTPTransport
    let authentication: (any AuthenticationProvider)?
    /// The extra certificate authorities to trust, if any (the change feed opens its own connections).
    let certificateAuthorityFile: String?
    /// The server's capabilities once asked (`capabilities()`).
    let knownCapabilities = Mutex<ServerCapabilities?>(nil)

    /// Creates a client for the server at `serverURL`.
    public init(serverURL: URL, configuration: SyncClientConfiguration = SyncClientConfiguration()) {
        self.serverURL = serverURL
        self.installationID = configuration.installationID ?? InstallationID.load()
        self.transport = configuration.transport ?? Self.defaultTransport(configuration)
        self.authentication = configuration.authentication
        self.certificateAuthorityFile = configuration.certificateAuthorityFile
    }

    /// AsyncHTTPClient, trusting the extra certificate authorities if any.
    private static func defaultTransport(_ configuration: SyncClientConfiguration) -> any HTTPTransport {
        AsyncHTTPClientTransport(certificateAuthorityFile: configuration.certificateAuthorityFile, timeout: configuration.timeout)
    }

    /// Online access to one table.
    public func table(_ name: String) -> RemoteTable { RemoteTable(client: self, name: name) }

    /// Online access to one table of a shared space (nil: the account's own namespace).
    public func table(_ name: String, space: String?) -> RemoteTable { RemoteTable(client: self, name: name, space: space) }

    /// The URL of a path below the server, with query items.
    func url(_ path: String, query: [URLQueryItem] = []) -> URL {
        var components = URLComponents(url: serverURL, resolvingAgainstBaseURL: false)!
        let base = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        // Paths are encoded by their callers; one from the server (the batch and feed paths in
        // `/capabilities`) may hold anything, and URLComponents traps on a character a path
        // cannot hold: such a path is encoded here, and stays on this server.
        let encoded = Self.isEncodedPath(path) ? path : path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? ""
        components.percentEncodedPath = base + "/" + encoded
        if !query.isEmpty { components.percentEncodedQuery = PercentEncoding.query(query) }
        return components.url!
    }

    /// True when `path` holds only what a percent-encoded URL path may (RFC 3986 `pchar` and `/`,
    /// each `%` starting an escape of two hex digits).
    static func isEncodedPath(_ path: String) -> Bool {
        let bytes = Array(path.utf8)
        func isHex(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20) }
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): continue
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
            default:
                guard "-._~!$&'()*+,;=:@/".utf8.contains(byte) else { return false }
            }
        }
        return true
    }

    /// Sends a request with the protocol headers.
    /// `readAfter`: the newest `updatedAt` the reply must already show (`X-Read-After`), for a
    /// server that may answer reads from a lagging replica.
    func send(_ method: String, url: URL, body: JSONObject? = nil, ifMatch: String? = nil, features: String,
              readAfter: String? = nil) async throws -> HTTPReply {
        try await send(method, url: url, encodedBody: body.map { Data(JSONText.encode($0).utf8) }, ifMatch: ifMatch, features: features, readAfter: readAfter)
    }

    /// `send` with a body already encoded as JSON.
    func send(_ method: String, url: URL, encodedBody: Data?, ifMatch: String? = nil, features: String,
              readAfter: String? = nil) async throws -> HTTPReply {
        var headers = protocolHeaders(features: features, accept: "application/json")
        if let ifMatch { headers["If-Match"] = ifMatch }
        if let readAfter { headers["X-Read-After"] = readAfter }
        if encodedBody != nil { headers["Content-Type"] = "application/json" }
        return try await transport.send(HTTPRequestSpec(method: method, url: url, headers: headers, body: encodedBody))
    }

    /// The headers every request carries: API version, features, installation id and the access token.
    func protocolHeaders(features: String, accept: String) -> [String: String] {
        var headers = [
            "ZUMO-API-VERSION": "2.0.0",
            "X-ZUMO-FEATURES": features,
            "X-ZUMO-VERSION": "OfflineSync/1.0 (Swift; Linux)",
            "X-ZUMO-INSTALLATION-ID": installationID,
            "Accept": accept,
        ]
        if let token = authentication?.accessToken(for: serverURL) { headers["X-ZUMO-AUTH"] = token }
        return headers
    }
}
