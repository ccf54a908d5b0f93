import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

/// The default transport: AsyncHTTPClient over NIO (and NIOSSL for HTTPS), keeping connections
/// alive between requests, trusting the system's certificate authorities and, when given, those
/// of a PEM file too.
///
/// Chosen over URLSession on Linux, which hands each socket event through libdispatch: the bulk
/// cycle's two 10,000-operation pushes were slower with it (BENCHMARKS.md, "Bulk cycle against
/// Taskwarrior").
/// URLSession also cannot trust an extra certificate authority on Linux: swift-corelibs-foundation
/// sets libcurl's CA bundle itself and offers no server-trust challenge (its
/// `URLSessionCertificateAuthorityInfoFile` variable is read on Android only).
public final class AsyncHTTPClientTransport: HTTPTransport {
    private let client: HTTPClient
    private let timeout: TimeAmount

    /// Creates a transport, trusting the certificate authorities in `certificateAuthorityFile` (PEM) if given.
    public init(certificateAuthorityFile: String? = nil, timeout: TimeInterval = 30) {
        self.timeout = .milliseconds(Int64(timeout * 1000))
        self.client = SharedHTTPClients.client(certificateAuthorityFile: certificateAuthorityFile, connectTimeout: self.timeout, readTimeout: self.timeout)
    }

    public func send(_ spec: HTTPRequestSpec) async throws -> HTTPReply {
        var request = HTTPClientRequest(url: spec.url.absoluteString)
        request.method = HTTPMethod(rawValue: spec.method)
        for (name, value) in spec.headers { request.headers.replaceOrAdd(name: name, value: value) }
        if let body = spec.body { request.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await client.execute(request, timeout: timeout)
            let body = try await Self.collect(response.body, within: timeout)
            var headers: [String: String] = [:]
            for (name, value) in response.headers { headers[name.lowercased()] = headers[name.lowercased()].map { "\($0), \(value)" } ?? value }
            return HTTPReply(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
        } catch {
            guard Self.isUntrusted(error) else { throw TransportError(description: "\(error)") }
            // BoringSSL's own text runs to a source path; the reason is all a person needs.
            throw TransportError(description: "certificate verify failed: not signed by the trusted certificate authorities", isUntrustedCertificate: true)
        }
    }

    /// Sync replies are pages of rows; anything larger is not one of ours.
    private static let maxReplyBytes = 256 << 20

    /// The reply's body, which must arrive within `limit` of its head. The client's timeout
    /// bounds the wait for the head and each pause between reads, so a server dripping a byte
    /// every half second held a sync for good (measured: still waiting after 200 s).
    private static func collect(_ body: HTTPClientResponse.Body, within limit: TimeAmount) async throws -> ByteBuffer {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await body.collect(upTo: maxReplyBytes) }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(limit.nanoseconds, 0)))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let buffer = first else {
                throw TransportError(description: "the reply did not arrive within \(limit.nanoseconds / 1_000_000_000) s of its start")
            }
            return buffer
        }
    }

    /// A failed certificate check surfaces as a handshake error naming it.
    private static func isUntrusted(_ error: any Error) -> Bool {
        guard let error = error as? NIOSSLError else { return false }
        let text = String(describing: error)
        return text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("unableToValidateCertificate")
    }
}

/// The earlier name of `AsyncHTTPClientTransport`, from when only a trusted CA file chose it.
public typealias TrustedCATransport = AsyncHTTPClientTransport
