import Foundation
import ServerTestSupport

/// Requests through curl, for replies URLSession cannot take on Linux (a 401 challenge).
enum Curl {
    /// The status and headers (lower-cased names) of one request.
    static func head(_ method: String, _ url: String, user: String? = nil) async throws -> (status: Int, headers: [String: String]) {
        let arguments = ["-s", "-o", "/dev/null", "-D", "-", "-X", method, "-H", "Depth: 0", url] + (user.map { ["-u", $0] } ?? [])
        let output: String = try await offPool {
            let child = try ChildProcess("/usr/bin/curl", arguments, captureOutput: true)
            let data = child.standardOutput!.readDataToEndOfFile()
            _ = child.wait()
            return String(decoding: data, as: UTF8.self)
        }
        var lines = output.components(separatedBy: "\r\n")
        let status = lines.isEmpty ? 0 : Int(lines.removeFirst().split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, headers)
    }
}
