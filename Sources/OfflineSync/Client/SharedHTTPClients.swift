import AsyncHTTPClient
import NIOCore
import NIOSSL
import Synchronization

/// AsyncHTTPClient instances kept for the process's lifetime, one per trust setting and timeouts:
/// an `HTTPClient` must be shut down before it is released, and keeping it also keeps its
/// connections alive between requests.
enum SharedHTTPClients {
    private static let clients = Mutex<[String: HTTPClient]>([:])

    /// The client trusting `certificateAuthorityFile` (PEM) on top of the system's store, if given.
    static func client(certificateAuthorityFile: String?, connectTimeout: TimeAmount, readTimeout: TimeAmount) -> HTTPClient {
        let key = "\(certificateAuthorityFile ?? "")|\(connectTimeout.nanoseconds)|\(readTimeout.nanoseconds)"
        return clients.withLock { clients in
            if let client = clients[key] { return client }
            var tls = TLSConfiguration.makeClientConfiguration()
            if let file = certificateAuthorityFile { tls.additionalTrustRoots = [.file(file)] }
            var configuration = HTTPClient.Configuration(tlsConfiguration: tls, timeout: .init(connect: connectTimeout, read: readTimeout))
            // Fail at once like URLSession: by default a refused connection or handshake is retried
            // until the deadline, so an untrusted certificate would take the whole timeout to report.
            configuration.connectionPool.retryConnectionEstablishment = false
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            clients[key] = client
            return client
        }
    }
}
