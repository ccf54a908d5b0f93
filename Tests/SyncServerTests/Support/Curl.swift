import Foundation
import ServerTestSupport

/// The `curl` command line: an HTTPS client that shares no code with the server or the SDK.
enum Curl {
    struct Reply {
        /// curl's exit status (60: the peer's certificate could not be verified).
        var exitStatus: Int32
        var httpStatus: Int
        var headers: [String: String]
        var body: String
        var error: String
    }

    /// Runs one request; `caFile` is the only extra certificate authority trusted.
    static func request(_ url: String, method: String = "GET", json: String? = nil, caFile: String? = nil) throws -> Reply {
        let dir = try TempDir.make()
        let headerFile = dir.appendingPathComponent("headers").path
        var arguments = [
            "--silent", "--show-error", "--noproxy", "*", "--max-time", "30", "--request", method,
            "--header", "ZUMO-API-VERSION: 2.0.0", "--dump-header", headerFile, "--write-out", "%{http_code}",
        ]
        if let caFile { arguments += ["--cacert", caFile] }
        if let json { arguments += ["--header", "Content-Type: application/json", "--data", json] }
        let child = try ChildProcess("/usr/bin/curl", arguments + [url], captureOutput: true, captureError: true)
        let output = String(decoding: child.standardOutput!.readDataToEndOfFile(), as: UTF8.self)
        let error = String(decoding: child.standardError!.readDataToEndOfFile(), as: UTF8.self)
        let status = child.wait()
        var headers: [String: String] = [:]
        for line in ((try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? "").split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        // --write-out appends the status code after the body.
        let code = Int(output.suffix(3)) ?? 0
        return Reply(exitStatus: status, httpStatus: code, headers: headers, body: String(output.dropLast(3)), error: error)
    }
}
