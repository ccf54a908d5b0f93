import ServerTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A minimal HTTP client for the table protocol: over URLSession on loopback to a server process,
/// or straight into an in-process server's router.
struct TableClient: Sendable {
    let baseURL: URL
    var apiVersion: String? = "2.0.0"
    /// Sent with every request (an access token, say) unless the request sets the same header.
    var defaultHeaders: [String: String] = [:]
    private let inProcess: InProcessServer?

    /// A response: status, headers and JSON body.
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var data: Data

        var json: Any? { try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
        var array: [[String: Any]] { json as? [[String: Any]] ?? [] }
        var error: String? { object["error"] as? String }
        var text: String { String(decoding: data, as: UTF8.self) }
        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
        /// Ids of an array reply, in order.
        var ids: [String] { array.compactMap { $0["id"] as? String } }
    }

    init(_ server: ServerProcess) {
        baseURL = server.baseURL
        inProcess = nil
    }

    /// Requests into an in-process server, as if sent to http://localhost.
    init(_ server: InProcessServer) {
        baseURL = URL(string: "http://localhost")!
        inProcess = server
    }

    func send(_ method: String, _ path: String, query: [(String, String)] = [], body: Any? = nil,
              rawBody: Data? = nil, headers explicit: [String: String] = [:]) async throws -> Reply {
        let headers = defaultHeaders.merging(explicit) { $1 }
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~$")
            components.percentEncodedQuery = query.map {
                "\($0.0.addingPercentEncoding(withAllowedCharacters: allowed)!)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)"
            }.joined(separator: "&")
        }
        if let inProcess {
            var headers = headers
            if let apiVersion { headers["ZUMO-API-VERSION"] = apiVersion }
            var data = rawBody
            if let body {
                data = try JSONSerialization.data(withJSONObject: body, options: [.fragmentsAllowed])
                headers["Content-Type"] = "application/json"
            }
            let uri = components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            return try await inProcess.send(method, uri, headers: headers, body: data)
        }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        request.timeoutInterval = 30
        if let apiVersion { request.setValue(apiVersion, forHTTPHeaderField: "ZUMO-API-VERSION") }
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body, options: [.fragmentsAllowed])
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let rawBody {
            request.httpBody = rawBody
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var headerMap: [String: String] = [:]
        for (k, v) in http.allHeaderFields { headerMap["\(k)"] = "\(v)" }
        return Reply(status: http.statusCode, headers: headerMap, data: data)
    }

    func get(_ path: String, _ query: [(String, String)] = []) async throws -> Reply { try await send("GET", path, query: query) }

    /// A GET of a path and query exactly as given (already percent-encoded, as in a `Link`).
    func get(uri: String) async throws -> Reply {
        var headers = defaultHeaders
        if let apiVersion { headers["ZUMO-API-VERSION"] = apiVersion }
        if let inProcess { return try await inProcess.send("GET", uri, headers: headers, body: nil) }
        guard let url = URL(string: baseURL.absoluteString + uri) else { throw ServerStartError(description: "not a URL: \(uri)") }
        var request = URLRequest(url: url)
        request.timeoutInterval = 30
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var headerMap: [String: String] = [:]
        for (k, v) in http.allHeaderFields { headerMap["\(k)"] = "\(v)" }
        return Reply(status: http.statusCode, headers: headerMap, data: data)
    }
    func post(_ path: String, _ body: Any) async throws -> Reply { try await send("POST", path, body: body) }
    func patch(_ path: String, _ body: Any, ifMatch: String? = nil) async throws -> Reply {
        try await send("PATCH", path, body: body, headers: ifMatch.map { ["If-Match": $0] } ?? [:])
    }
    func delete(_ path: String, ifMatch: String? = nil) async throws -> Reply {
        try await send("DELETE", path, headers: ifMatch.map { ["If-Match": $0] } ?? [:])
    }

    /// Inserts items and returns the stored ones.
    @discardableResult
    func insertAll(_ table: String, _ items: [[String: Any]]) async throws -> [[String: Any]] {
        var stored: [[String: Any]] = []
        for item in items {
            let reply = try await post("tables/\(table)", item)
            guard reply.status == 201 else { throw ServerStartError(description: "insert failed: \(reply.status) \(reply.text)") }
            stored.append(reply.object)
        }
        return stored
    }
}
