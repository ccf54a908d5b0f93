import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A failure in a query test helper (an unexpected status, a runaway `Link` chain).
struct QueryTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension TableClient {
    /// GETs an absolute URL, such as a `Link` next-page URL, with the client's API version header.
    func getAbsolute(_ url: String) async throws -> Reply {
        guard url.hasPrefix(baseURL.absoluteString) else { throw QueryTestError("not a URL of this server: \(url)") }
        return try await get(uri: String(url.dropFirst(baseURL.absoluteString.count)))
    }

    /// Runs a query, then follows every `Link` next page; returns the ids of each page in order.
    func collectPages(_ path: String, _ query: [(String, String)], maxPages: Int = 20) async throws -> [[String]] {
        var reply = try await get(path, query)
        var pages: [[String]] = []
        while true {
            guard reply.status == 200 else { throw QueryTestError("page \(pages.count + 1): \(reply.status) \(reply.text)") }
            pages.append(reply.ids)
            guard let next = reply.nextPageURL else { return pages }
            guard pages.count < maxPages else { throw QueryTestError("more than \(maxPages) pages; last link \(next)") }
            reply = try await getAbsolute(next)
        }
    }
}

extension TableClient.Reply {
    /// The URL of a `Link: <url>; rel=next` header with `; rel=next` removed, or nil without a header.
    var nextPageURL: String? {
        guard let link = header("Link") else { return nil }
        let suffix = "; rel=next"
        let url = link.hasSuffix(suffix) ? String(link.dropLast(suffix.count)) : link
        return url.trimmingCharacters(in: .whitespaces)
    }

    /// True when the body is exactly an empty JSON array.
    var isEmptyArray: Bool { (json as? [Any])?.isEmpty == true }
}

/// `r000`, `r001`, …: ids whose string order is their numeric order.
func numberedRowID(_ i: Int) -> String {
    let digits = String(i)
    return "r" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
}

/// Rows `r000`… with a number column `i` holding the row's index.
func numberedRows(_ count: Int) -> [[String: Any]] {
    (0..<count).map { ["id": numberedRowID($0), "i": $0] }
}

/// An object as JSON text with sorted keys, for comparing decoded objects.
func canonicalJSON(_ object: [String: Any]) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
}
