import ServerTestSupport
import Foundation

/// The incremental-pull algorithm of sync-semantics.md, as a client runs it over HTTP; with
/// `keyset`, the extension the capabilities document offers (each page starts after the last
/// row's `updatedAt` and `id`, where the base algorithm uses `$skip`).
struct IncrementalPuller {
    let client: TableClient
    let table: String
    var token = "1970-01-01T00:00:00.000Z"
    var pageSize = 50
    var keyset = false
    /// Every id received, with how often.
    private(set) var received: [String: Int] = [:]
    /// Each id's latest version received.
    private(set) var versions: [String: String] = [:]
    private(set) var requests = 0

    init(client: TableClient, table: String) {
        self.client = client
        self.table = table
    }

    /// Pulls until an empty page; saves the token whenever a page moves it forward.
    mutating func pull(maxRequests: Int = 10_000) async throws {
        var skip = 0
        var after: (updatedAt: String, id: String)?
        while requests < maxRequests {
            requests += 1
            let since = "updatedAt ge datetimeoffset'\(after?.updatedAt ?? token)'"
            let reply = try await client.get("tables/\(table)", [
                ("$filter", after.map { "(\(since)) and (updatedAt gt datetimeoffset'\($0.updatedAt)' or id gt '\($0.id)')" } ?? "(\(since))"),
                ("$orderby", keyset ? "updatedAt asc, id asc" : "updatedAt asc"),
                ("$top", "\(pageSize)"),
                ("$skip", keyset ? "0" : "\(skip)"),
                ("__includeDeleted", "true"),
            ])
            guard reply.status == 200 else { throw ServerStartError(description: "pull failed: \(reply.status) \(reply.text)") }
            let page = reply.array
            if page.isEmpty { return }
            for item in page {
                received[item["id"] as! String, default: 0] += 1
                versions[item["id"] as! String] = item["version"] as? String
            }
            if keyset, let last = page.last { after = (last["updatedAt"] as! String, last["id"] as! String) }
            let newest = page.compactMap { $0["updatedAt"] as? String }.max()!
            if newest > token {
                token = newest
                skip = 0
            } else {
                skip += page.count
            }
        }
        throw ServerStartError(description: "incremental pull did not finish within \(maxRequests) requests")
    }
}
