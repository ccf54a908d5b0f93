import CalDAV
import Dispatch
import Foundation
import SyncServer

/// A whole HTTP request → the server's routes in process (`InProcessRouter`): the table API, its
/// extensions and the CalDAV face, on a SQLite file with accounts required. The input is a
/// request as text: `METHOD TARGET`, header lines, an empty line, the body. A header value
/// `Bearer @` or `Basic @` becomes the fuzz account's valid token or password, so the fuzzer
/// reaches past the sign-in. Holds:
/// - every request gets a status, and never 500 (a route that fails answers what went wrong);
/// - no request without a valid credential gets a 2xx but the public ones (OPTIONS, /health,
///   /capabilities, the CalDAV root's redirect).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let request = FuzzRequest(UnsafeBufferPointer(start: data, count: size)) else { return 0 }
    let server = Server.shared
    let headers = request.headers.map { name, value -> (String, String) in
        switch value {
        case "Bearer @": return (name, "Bearer \(server.token)")
        case "Basic @": return (name, "Basic \(server.basic)")
        default: return (name, value)
        }
    }
    let signedIn = request.headers.contains { $0.value == "Bearer @" || $0.value == "Basic @" }
    guard let reply = blocking({ await server.router.respond(method: request.method, path: request.target, headers: headers, body: request.body) }) else {
        return 0  // not a request an HTTP parser lets through
    }
    guard reply.status != 500, (100...599).contains(reply.status) else {
        fatalError("\(reply.status) for \(request.method) \(request.target): \(String(decoding: reply.body, as: UTF8.self))")
    }
    if !signedIn, (200...299).contains(reply.status), !isPublic(method: request.method, target: request.target) {
        fatalError("\(reply.status) without a credential for \(request.method) \(request.target)")
    }
    return 0
}

/// The server opens (and Swift's, NIO's and the server's lazily made objects come to be)
/// before the first input, so that the leak check of each input sees only what that input made.
@_cdecl("LLVMFuzzerInitialize")
public func initializeRouter(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    let server = Server.shared
    for seed in ["GET /health", "GET /tables/items\nAuthorization: Bearer @\nZUMO-API-VERSION: 2.0.0", "PROPFIND /dav/\nAuthorization: Basic @\nDepth: 1"] {
        let bytes = Array((seed + "\n\n").utf8)
        bytes.withUnsafeBufferPointer { _ = fuzzRouter($0.baseAddress, $0.count) }
    }
    _ = server
    return 0
}

/// Requests anyone may make.
private func isPublic(method: String, target: String) -> Bool {
    let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
    return method == "OPTIONS" || ["/health", "/capabilities"].contains(path)
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

/// One server for the whole run, with an account whose credentials the placeholders stand for.
final class Server: @unchecked Sendable {
    static let shared = Server()
    let router: InProcessRouter
    let token: String
    let basic: String

    private init() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-router-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = ServerConfiguration(database: folder.appendingPathComponent("todo.sqlite").path)
        configuration.auth = .required
        configuration.metrics = true
        configuration.maxTables = 20  // the database grows with every input; keep it small
        let settings = configuration
        let (name, password) = ("fuzz", "fuzz-password-1")
        let (router, token): (InProcessRouter, String) = blocking {
            do {
                let router = try await InProcessRouter.open(settings, faces: [CalDAVFace()])
                _ = try await router.users.add(name: name, password: password)
                let login = await router.respond(method: "POST", path: "/.auth/login", headers: [("Content-Type", "application/json")],
                                                 body: Array(#"{"username":"\#(name)","password":"\#(password)"}"#.utf8))
                guard let body = login?.body, let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
                      let token = object["authenticationToken"] as? String else { fatalError("cannot sign in: \(String(describing: login))") }
                return (router, token)
            } catch {
                fatalError("cannot open the server: \(error)")
            }
        }
        self.router = router
        self.token = token
        basic = Data("\(name):\(password)".utf8).base64EncodedString()
    }
}

/// Runs async work to its end from the fuzzer's synchronous callback.
func blocking<T>(_ work: @escaping @Sendable () async -> T) -> T {
    let box = Box<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        box.value = await work()
        done.signal()
    }
    done.wait()
    return box.value!
}

/// The result of work run on another thread, read once it has signalled.
final class Box<T>: @unchecked Sendable {
    var value: T?
}
