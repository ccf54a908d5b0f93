import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import OfflineSync
import ServerTestSupport
import Synchronization
import Testing
@testable import TodoKit
import TodoModel

/// While live, a CalDAV app's refused stale edit reaches the conflict history through the feed,
/// not only at the next manual sync.
@Suite struct LostEditLiveTests {
    /// A CalDAV request as ann, as DAVx5 sends it.
    private func dav(_ server: ServerProcess, _ method: String, _ id: String, headers: [String: String] = [:],
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

    @Test func aRefusedPhoneEditReachesTheHistoryWhileLive() async throws {
        let database = try TempDir.make().appendingPathComponent("s.sqlite").path
        let server = try await ServerProcess.start(arguments: ["--database", database, "--auth", "required"])
        defer { server.stop() }
        let (status, errors) = try await ServerProcess.runToExit(arguments: ["users", "add", "ann", "--password-stdin", "--database", database],
                                                                 input: "password ann\n")
        #expect(status == 0, "\(errors)")
        let dir = try TempDir.make()
        let service = try TodoStore(storePath: dir.appendingPathComponent("d.sqlite").path, serverURL: server.baseURL,
                                      tokens: TokenStore(path: dir.appendingPathComponent("tokens.json").path))
        try await service.account.signIn(user: "ann", password: "password ann")
        var milk = try await service.items.add("Milk")
        try await service.server.sync()
        let phone = try await dav(server, "GET", milk.id)
        milk.text = "Soy milk"
        milk = try await service.items.save(milk)
        try await service.server.sync()

        // Pulls finished after the feed went live: the first is the catch-up that takes what is due.
        let pulls = Mutex((live: false, after: 0))
        let made = service.server.makeLiveSync(onState: { state in if case .live = state { pulls.withLock { $0.live = true } } },
                                        onSync: { activity, _ in
                                            if activity == .pulled { pulls.withLock { if $0.live { $0.after += 1 } } }
                                        })
        let live = try #require(made)
        live.start()
        defer { live.stop() }
        try await waitUntil { pulls.withLock { $0.after } >= 1 }

        let edited = phone.text.replacingOccurrences(of: "SUMMARY:Milk", with: "SUMMARY:Oat milk")
        let put = try await dav(server, "PUT", milk.id, headers: ["If-Match": try #require(phone.etag), "Content-Type": "text/calendar"], body: edited)
        #expect(put.status == 412)
        try await waitUntil { (try? service.conflicts.log())?.contains { $0.resolution == .refusedOnServer } == true }
        #expect(try service.conflicts.log().first?.lost["text"] == .string("Oat milk"))
    }

    private func waitUntil(_ condition: () throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(10)
        while try !condition() {
            guard Date() < deadline else { Issue.record("timed out"); return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
