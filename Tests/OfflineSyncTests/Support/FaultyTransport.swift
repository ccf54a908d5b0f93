import Foundation
import OfflineSync
import OfflineSyncURLSession
import Synchronization

/// Forwards to the real transport but answers chosen requests itself, to force rare faults
/// (a 500, a garbage body, a reply cut off) that a healthy server never produces.
final class FaultyTransport: HTTPTransport, Sendable {
    enum Fault {
        case status404, status500, garbage200, garbage201, cutOff
        /// A 403 that is not the protocol's read-only-space refusal (a proxy's, say).
        case status403
        /// A web page's 404, as a wrong server URL answers.
        case html404
        /// 200 with a JSON object that is no item of ours, as a login page behind a redirect answers.
        case loginPageJSON
        /// 200 with this body, whatever was asked.
        case body200(String)
        /// 200 with this body and the time now in its `Date` header, as a server's reply has.
        case dated200(String)
    }

    private let real = URLSessionTransport(timeout: 5)
    private let state = Mutex(State())

    private struct State {
        var faults: [String: Fault] = [:]
        var pathFaults: [String: Fault] = [:]
        var requests: [String] = []
        var headers: [[String: String]] = []
        var droppedReplyHeaders: Set<String> = []
        var hook: Hook?
    }

    private struct Hook {
        let method: String
        let suffix: String
        var remaining: Int
        let action: @Sendable () async throws -> Void
    }

    /// Every request so far, as "METHOD /path".
    var requests: [String] { state.withLock { $0.requests } }

    /// Every request so far, as "METHOD /path" and its headers.
    var requestsWithHeaders: [(String, [String: String])] { state.withLock { Array(zip($0.requests, $0.headers)) } }

    /// Fails every request with this method until cleared.
    func fail(_ method: String, with fault: Fault?) { state.withLock { $0.faults[method] = fault } }

    /// Fails every request whose path ends with `suffix` until cleared.
    func fail(path suffix: String, with fault: Fault?) { state.withLock { $0.pathFaults[suffix] = fault } }

    /// Leaves the header `name` out of every reply the server sends (a proxy passing only the
    /// headers it knows).
    func dropHeader(_ name: String) { state.withLock { _ = $0.droppedReplyHeaders.insert(name.lowercased()) } }

    /// Runs `action` once, just before the `number`-th later `method` request whose path ends
    /// with `suffix` is sent: a change made by someone else at an exact moment.
    func before(_ method: String, endingWith suffix: String, number: Int, run action: @escaping @Sendable () async throws -> Void) {
        state.withLock { $0.hook = Hook(method: method, suffix: suffix, remaining: number, action: action) }
    }

    func send(_ request: HTTPRequestSpec) async throws -> HTTPReply {
        let (fault, action) = state.withLock { state -> (Fault?, (@Sendable () async throws -> Void)?) in
            state.requests.append("\(request.method) \(request.url.path)")
            state.headers.append(request.headers)
            var action: (@Sendable () async throws -> Void)?
            if var hook = state.hook, hook.method == request.method, request.url.path.hasSuffix(hook.suffix) {
                hook.remaining -= 1
                state.hook = hook.remaining > 0 ? hook : nil
                if hook.remaining == 0 { action = hook.action }
            }
            return (state.pathFaults.first { request.url.path.hasSuffix($0.key) }?.value ?? state.faults[request.method], action)
        }
        try await action?()
        switch fault {
        case nil:
            var reply = try await real.send(request)
            for name in state.withLock({ $0.droppedReplyHeaders }) { reply.headers[name] = nil }
            return reply
        case .status404:
            return HTTPReply(status: 404, headers: [:], body: Data(#"{"error":"Not Found"}"#.utf8))
        case .status500:
            return HTTPReply(status: 500, headers: [:], body: Data(#"{"error":"boom"}"#.utf8))
        case .status403:
            return HTTPReply(status: 403, headers: [:], body: Data(#"{"error":"Forbidden"}"#.utf8))
        case .html404:
            return HTTPReply(status: 404, headers: [:], body: Data("<html><h1>Not Found</h1></html>".utf8))
        case .loginPageJSON:
            return HTTPReply(status: 200, headers: [:], body: Data(#"{"results":[],"id":"login"}"#.utf8))
        case .body200(let text):
            return HTTPReply(status: 200, headers: [:], body: Data(text.utf8))
        case .dated200(let text):
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return HTTPReply(status: 200, headers: ["date": formatter.string(from: Date())], body: Data(text.utf8))
        case .garbage200:
            return HTTPReply(status: 200, headers: [:], body: Data("<html>proxy error".utf8))
        case .garbage201:
            // The server stored it, but the reply arrived mangled.
            _ = try await real.send(request)
            return HTTPReply(status: 201, headers: [:], body: Data("\u{0}\u{1}not json".utf8))
        case .cutOff:
            // The server stored it, but the connection dropped before the reply.
            _ = try await real.send(request)
            throw TransportError(description: "connection reset by peer")
        }
    }
}
