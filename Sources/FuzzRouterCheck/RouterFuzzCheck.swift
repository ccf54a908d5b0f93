import CalDAV
import Foundation
import FuzzChecks
import SyncServer

/// A whole HTTP request → the server's routes in process (`InProcessRouter`): the table API, its
/// extensions and the CalDAV face, on a SQLite file with accounts required. The input is a
/// request as text: `METHOD TARGET`, header lines, an empty line, the body. A header value
/// `Bearer @` or `Basic @` becomes the fuzz account's valid token or password, so the fuzzer
/// reaches past the sign-in. Holds:
/// - every request gets a status, and never 500 (a route that fails answers what went wrong);
/// - no request without a valid credential gets a 2xx but the public ones (OPTIONS, /health,
///   /capabilities, the CalDAV root's redirect).
public enum RouterFuzzCheck {
    /// What failed for the request `input` spells, or nil when every property holds.
    public static func check(_ input: [UInt8]) async -> FuzzFailure? {
        guard let request = input.withUnsafeBufferPointer(FuzzRequest.init) else { return nil }
        let server: RouterFuzzServer
        do {
            server = try await RouterFuzzServer.shared.value
        } catch {
            return FuzzFailure("cannot open the server: \(error)")
        }
        let headers = request.headers.map { name, value -> (String, String) in
            switch value {
            case "Bearer @": return (name, "Bearer \(server.token)")
            case "Basic @": return (name, "Basic \(server.basic)")
            default: return (name, value)
            }
        }
        let signedIn = request.headers.contains { $0.value == "Bearer @" || $0.value == "Basic @" }
        guard let reply = await server.router.respond(method: request.method, path: request.target, headers: headers, body: request.body) else {
            return nil  // not a request an HTTP parser lets through
        }
        guard reply.status != 500, (100...599).contains(reply.status) else {
            return FuzzFailure("\(reply.status) for \(request.method) \(request.target): \(String(decoding: reply.body, as: UTF8.self))")
        }
        if !signedIn, (200...299).contains(reply.status), !isPublic(method: request.method, target: request.target) {
            return FuzzFailure("\(reply.status) without a credential for \(request.method) \(request.target)")
        }
        return nil
    }

    /// For libFuzzer's synchronous callback: the check run to its end on another thread, a trap on a failure.
    public static func runBlocking(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let input = Array(UnsafeBufferPointer(start: data, count: size))
        let box = FailureBox()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            box.failure = await check(input)
            done.signal()
        }
        done.wait()
        return FuzzFailure.trap(box.failure)
    }

    /// Opens the server and sends it a few ordinary requests, so that the lazily made objects of
    /// Swift, NIO and the server exist before libFuzzer's first input (its leak check then sees
    /// only what an input made).
    public static func warmUp() {
        for seed in ["GET /health", "GET /tables/items\nAuthorization: Bearer @\nZUMO-API-VERSION: 2.0.0", "PROPFIND /dav/\nAuthorization: Basic @\nDepth: 1"] {
            let bytes = Array((seed + "\n\n").utf8)
            _ = bytes.withUnsafeBufferPointer { runBlocking($0.baseAddress, $0.count) }
        }
    }

    /// Requests anyone may make.
    private static func isPublic(method: String, target: String) -> Bool {
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
        // The router skips empty segments: `///capabilities` is `/capabilities`.
        let segments = "/" + path.split(separator: "/").joined(separator: "/")
        return method == "OPTIONS" || ["/health", "/capabilities"].contains(segments)
    }
}

/// A failure handed from the checking task to libFuzzer's thread, read once it has signalled.
private final class FailureBox: @unchecked Sendable {
    var failure: FuzzFailure?
}

/// The request an input spells.
struct FuzzRequest {
    var method: String
    var target: String
    var headers: [(name: String, value: String)] = []
    var body: [UInt8]

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        // The head ends at the first empty line; the rest is the body, bytes as they are.
        var end = bytes.count
        var bodyStart = bytes.count
        for index in bytes.indices where bytes[index] == 0x0A && index + 1 < bytes.count && bytes[index + 1] == 0x0A {
            end = index
            bodyStart = index + 2
            break
        }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first else { return nil }
        let words = first.split(separator: " ", maxSplits: 1)
        guard words.count == 2 else { return nil }
        method = String(words[0])
        target = String(words[1])
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        body = Array(bytes[bodyStart...])
    }
}

/// One server for the whole run (a process's fuzzing, or the replay test's), with an account
/// whose credentials the placeholders stand for.
struct RouterFuzzServer: Sendable {
    static let shared = Task { try await RouterFuzzServer() }

    let router: InProcessRouter
    let token: String
    let basic: String

    /// This process's database folder, removed as the process exits.
    private static var folder: URL { FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-router-\(getpid())") }

    private init() async throws {
        let folder = Self.folder
        // A process before this one with the same pid, killed, left its database here, with the account in it.
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: RouterFuzzServer.folder) }
        var configuration = ServerConfiguration(database: folder.appendingPathComponent("todo.sqlite").path)
        configuration.auth = .required
        configuration.metrics = true
        configuration.maxTables = 20  // the database grows with every input; keep it small
        let (name, password) = ("fuzz", "fuzz-password-1")
        router = try await InProcessRouter.open(configuration, faces: [CalDAVFace()])
        _ = try await router.users.add(name: name, password: password)
        let login = await router.respond(method: "POST", path: "/.auth/login", headers: [("Content-Type", "application/json")],
                                         body: Array(#"{"username":"\#(name)","password":"\#(password)"}"#.utf8))
        guard let body = login?.body, let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              let token = object["authenticationToken"] as? String else { throw FuzzFailure("cannot sign in: \(String(describing: login))") }
        self.token = token
        basic = Data("\(name):\(password)".utf8).base64EncodedString()
    }
}
