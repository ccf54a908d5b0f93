import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OfflineSync
import Synchronization

/// Foundation's URLSession with keep-alive (the default was this before `AsyncHTTPClientTransport`).
/// A module of its own: on Linux, URLSession brings libcurl and its libraries into every process
/// that links it, and the app, which sends through AsyncHTTPClient, should not load them.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// Creates a transport with a request timeout in seconds.
    public init(timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 2
        configuration.httpMaximumConnectionsPerHost = 4
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil  // sync replies are never reused; storing each page costs time and memory
        session = URLSession(configuration: configuration)
    }

    /// Sends `spec` and returns the reply; a request that gets none, or whose server certificate
    /// cannot be verified, throws `TransportError`.
    public func send(_ spec: HTTPRequestSpec) async throws -> HTTPReply {
        var request = URLRequest(url: spec.url)
        request.httpMethod = spec.method
        request.httpBody = spec.body
        for (name, value) in spec.headers { request.setValue(value, forHTTPHeaderField: name) }
        let data: Data
        let response: URLResponse
        let pending = PendingTask()
        do {
            (data, response) = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                    let task = session.dataTask(with: request) { data, response, error in
                        if let error {
                            continuation.resume(throwing: error)
                        } else if let response {
                            continuation.resume(returning: (data ?? Data(), response))
                        } else {
                            continuation.resume(throwing: URLError(.badServerResponse))
                        }
                    }
                    pending.start(task)
                }
            } onCancel: {
                pending.cancel()
            }
        } catch let error as URLError {
            throw TransportError(description: "\(error.code): \(error.localizedDescription)", isUntrustedCertificate: Self.isUntrusted(error))
        } catch {
            throw TransportError(description: "\(error)")
        }
        guard let http = response as? HTTPURLResponse else { throw TransportError(description: "not an HTTP response") }
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields { headers["\(key)".lowercased()] = "\(value)" }
        return HTTPReply(status: http.statusCode, headers: headers, body: data)
    }

    /// True for a server certificate URLSession could not verify. Darwin has codes for it; on Linux
    /// the code is `.unknown` and only libcurl's message (CURLE_PEER_FAILED_VERIFICATION) tells.
    private static func isUntrusted(_ error: URLError) -> Bool {
        let codes: Set<URLError.Code> = [
            .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
        ]
        let message = error.localizedDescription
        return codes.contains(error.code) || message.contains("SSL certificate problem") || message.contains("certificate subject name")
    }
}

/// A request's task, cancelled off the cancelling thread. `URLSession.data(for:)` cancelled
/// inline, and hung the test process for good: the Swift runtime holds the Swift task's status
/// lock while a cancellation handler runs, `URLSessionTask.cancel` waits for the session's queue,
/// and that queue may be finishing the same request, resuming its continuation, which waits for
/// that lock (swift-corelibs-foundation on Linux).
private final class PendingTask: Sendable {
    private let state = Mutex<(task: URLSessionTask?, cancelled: Bool)>((nil, false))

    /// Starts `task`, or cancels it at once when the request was cancelled before it existed.
    func start(_ task: URLSessionTask) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        task.resume()
        if cancelled { Self.cancelLater(task) }
    }

    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        if let task { Self.cancelLater(task) }
    }

    private static func cancelLater(_ task: URLSessionTask) {
        DispatchQueue.global().async { task.cancel() }
    }
}
