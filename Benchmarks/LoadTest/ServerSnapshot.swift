import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every row of a table as the server holds it, soft-deleted ones included, read page by page.
enum ServerSnapshot {
    /// `token` and `space`: a signed-in member's view of a shared space.
    static func rows(server: URL, table: String, token: String? = nil, space: String? = nil) async throws -> [String: [ServerRow]] {
        var rows: [String: [ServerRow]] = [:]
        var skip = 0
        while true {
            var components = URLComponents(url: server.appendingPathComponent("tables/\(table)"), resolvingAgainstBaseURL: false)!
            components.percentEncodedQuery = "$orderby=id%20asc&$top=1000&$skip=\(skip)&__includeDeleted=true" + (space.map { "&space=\($0)" } ?? "")
            var request = URLRequest(url: components.url!)
            request.setValue("2.0.0", forHTTPHeaderField: "ZUMO-API-VERSION")
            if let token { request.setValue(token, forHTTPHeaderField: "X-ZUMO-AUTH") }
            let (data, response) = try await URLSession.shared.data(for: request)
            guard (response as? HTTPURLResponse)?.statusCode == 200, let page = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
                throw LoadTestError("reading the server's rows failed: \(String(decoding: data, as: UTF8.self))")
            }
            for row in page {
                guard let id = row["id"] as? String else { continue }
                rows[id, default: []].append(ServerRow(
                    version: row["version"] as? String ?? "", text: row["text"] as? String ?? "", deleted: row["deleted"] as? Bool ?? false))
            }
            if page.count < 1000 { return rows }
            skip += page.count
        }
    }
}

/// A failure of the load test itself (not a finding).
struct LoadTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
