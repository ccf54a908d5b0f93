import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServerTestSupport
import Testing

/// The stores the CalDAV face is tested on: a SQLite file, and the test cluster's PostgreSQL.
enum DAVStore: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }

    func databaseArgument() throws -> String {
        switch self {
        case .sqlite: return try TempDir.make().appendingPathComponent("server.sqlite").path
        case .postgres:
            guard let url = ProcessInfo.processInfo.environment["TODO_TEST_POSTGRES_URL"] else {
                throw ServerStartError(description: "TODO_TEST_POSTGRES_URL is not set: run the tests with `make test` (it starts a throwaway PostgreSQL)")
            }
            return url
        }
    }
}

/// One real todo-server process per store, requiring accounts, for the whole run; each test makes
/// accounts of its own, so their namespaces never meet.
actor DAVServers {
    static let shared = DAVServers()
    private var servers: [DAVStore: Task<DAVServer, any Error>] = [:]

    func server(_ store: DAVStore) async throws -> DAVServer {
        if servers[store] == nil {
            servers[store] = Task {
                let database = try store.databaseArgument()
                let process = try await ServerProcess.start(arguments: ["--database", database, "--auth", "required"])
                return DAVServer(process: process, database: database)
            }
        }
        return try await servers[store]!.value
    }
}

/// A todo-server process and the database it runs on.
struct DAVServer: Sendable {
    let process: ServerProcess
    let database: String

    var baseURL: URL { process.baseURL }

    /// A new account with a name no other test uses.
    func addAccount(_ prefix: String = "u", password: String = "correct horse battery") async throws -> DAVAccount {
        let name = "\(prefix)\(UUID().uuidString.prefix(8).lowercased())"
        let (status, errors) = try await ServerProcess.runToExit(arguments: ["users", "add", name, "--database", database, "--password-stdin"],
                                                                 input: password + "\n")
        guard status == 0 else { throw ServerStartError(description: "users add failed: \(errors)") }
        return DAVAccount(server: self, name: name, password: password)
    }
}

/// A reply, whole.
struct DAVReply: Sendable {
    let status: Int
    /// Header names lower-cased.
    let headers: [String: String]
    let text: String

    var multiStatus: MultiStatusReply { MultiStatusReply(text) }
    var etag: String? { headers["etag"] }
}

/// An account on a `DAVServer`, speaking CalDAV with Basic credentials and the table API with a token.
struct DAVAccount: Sendable {
    let server: DAVServer
    let name: String
    let password: String

    var home: String { "/dav/calendars/\(name)/" }
    var inbox: String { home + "inbox/" }

    /// One CalDAV request with this account's name and password (or `credentials`).
    func dav(_ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil,
             credentials: (String, String)? = nil) async throws -> DAVReply {
        let (user, secret) = credentials ?? (name, password)
        var all = headers
        all["Authorization"] = "Basic " + Data("\(user):\(secret)".utf8).base64EncodedString()
        return try await DAVHTTP.send(method, server.baseURL.absoluteString + path,
                                      headers: all, body: body.map { Data($0.utf8) })
    }

    /// PUTs a task's iCalendar text at `path`.
    func put(_ path: String, _ ics: String, headers: [String: String] = [:]) async throws -> DAVReply {
        try await dav("PUT", path, headers: headers.merging(["Content-Type": "text/calendar; charset=utf-8"]) { a, _ in a }, body: ics)
    }

    /// A PUT that must store the task (201 or 204): a refusal fails the test where it happens,
    /// not later as a report that lacks the task.
    @discardableResult
    func store(_ path: String, _ ics: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> DAVReply {
        let reply = try await put(path, ics)
        #expect([201, 204].contains(reply.status), "PUT \(path) answered \(reply.status): \(reply.text)", sourceLocation: sourceLocation)
        return reply
    }

    /// A REPORT or PROPFIND with an XML body.
    func xml(_ method: String, _ path: String, depth: String = "1", _ body: String) async throws -> DAVReply {
        try await dav(method, path, headers: ["Depth": depth, "Content-Type": "application/xml; charset=utf-8"], body: body)
    }

    /// A table API request with this account's token (`?space=` in `path` for a shared space).
    func table(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> (status: Int, json: Any?) {
        let token = try await self.token()
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let reply = try await DAVHTTP.send(method, server.baseURL.absoluteString + path,
                                           headers: ["X-ZUMO-AUTH": token, "ZUMO-API-VERSION": "2.0.0", "Content-Type": "application/json"], body: data)
        return (reply.status, try? JSONSerialization.jsonObject(with: Data(reply.text.utf8), options: [.fragmentsAllowed]))
    }

    /// The account's item `id` through the table API (nil when missing).
    func item(_ id: String, space: String? = nil) async throws -> [String: Any]? {
        let reply = try await table("GET", "/tables/TodoItem/\(id)" + (space.map { "?space=\($0)" } ?? ""))
        return reply.status == 200 ? reply.json as? [String: Any] : nil
    }

    private func token() async throws -> String {
        let reply = try await DAVHTTP.send("POST", server.baseURL.absoluteString + "/.auth/login", headers: ["Content-Type": "application/json"],
                                           body: try JSONSerialization.data(withJSONObject: ["username": name, "password": password]))
        guard let object = try JSONSerialization.jsonObject(with: Data(reply.text.utf8)) as? [String: Any], let token = object["authenticationToken"] as? String else {
            throw ServerStartError(description: "login failed: \(reply.status) \(reply.text)")
        }
        return token
    }
}

/// HTTP over URLSession, any method (Curl for what URLSession cannot take).
enum DAVHTTP {
    static func send(_ method: String, _ url: String, headers: [String: String], body: Data?) async throws -> DAVReply {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields { fields[String(describing: name).lowercased()] = String(describing: value) }
        return DAVReply(status: http.statusCode, headers: fields, text: String(decoding: data, as: UTF8.self))
    }
}
