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
        let phone = try await phoneRequest(server, "GET", milk.id)
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
        let put = try await phoneRequest(server, "PUT", milk.id, headers: ["If-Match": try #require(phone.etag), "Content-Type": "text/calendar"], body: edited)
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
