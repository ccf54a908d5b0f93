import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServerTestSupport
import Testing

/// A CalDAV request as ann, to a task of her Inbox, as DAVx5 sends it.
func phoneRequest(_ server: ServerProcess, _ method: String, _ id: String, headers: [String: String] = [:],
                  body: String? = nil) async throws -> (status: Int, etag: String?, text: String) {
    var request = URLRequest(url: server.baseURL.appendingPathComponent("dav/calendars/ann/inbox/\(id).ics"))
    request.httpMethod = method
    request.setValue("Basic " + Data("ann:password ann".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
    request.setValue("DAVx5/4.4.3-ose", forHTTPHeaderField: "User-Agent")
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    request.httpBody = body.map { Data($0.utf8) }
    let (data, response) = try await URLSession.shared.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    return (http.statusCode, http.value(forHTTPHeaderField: "ETag"), String(decoding: data, as: UTF8.self))
}
