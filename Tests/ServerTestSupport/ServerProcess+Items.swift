import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ServerProcess {
    /// The items of an open-access server's table, soft-deleted ones included (first 1,000).
    public func items(table: String) async throws -> [[String: Any]] {
        try await Self.items(port: port, table: table)
    }

    /// The same for a server known only by its loopback port.
    public static func items(port: Int, table: String) async throws -> [[String: Any]] {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/tables/\(table)?__includeDeleted=true&$top=1000")!)
        request.setValue("2.0.0", forHTTPHeaderField: "ZUMO-API-VERSION")
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    }
}
