import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServerTestSupport
import Testing

/// A CalDAV app's stale edit the server refuses (412: both sides changed a field) reaches `todo`'s
/// conflict history, through a real server, and `todo restore` brings it back.
@Suite struct LostEditEndToEndTests {
    /// A server with ann signed in on `todo`, and one task she synced.
    struct Desk {
        let server: ServerProcess
        let home: URL
        let url: String
        let id: String

        static func make() async throws -> Desk {
            let home = try TempDir.make()
            let accounts = try await AccountServer.start()
            try await accounts.signIn("ann", home: home)
            let (server, url) = (accounts.server, accounts.url)
            let added = try await TodoCLI.run(["add", "Milk", "--server", url], home: home)
            let desk = Desk(server: server, home: home, url: url, id: added.out.trimmingCharacters(in: .whitespacesAndNewlines))
            try await desk.todo("sync")
            return desk
        }

        @discardableResult
        func todo(_ args: String...) async throws -> String {
            let result = try await TodoCLI.run(args + ["--server", url], home: home)
            #expect(result.status == 0, "todo \(args): \(result.err)")
            return result.out
        }

        /// `todo conflicts --json`.
        func conflicts() async throws -> [[String: Any]] {
            try #require(try JSONSerialization.jsonObject(with: Data(try await todo("conflicts", "--json").utf8)) as? [[String: Any]])
        }

        /// A CalDAV request as ann, the way DAVx5 sends it.
        func dav(_ method: String, headers: [String: String] = [:], body: String? = nil) async throws -> (status: Int, etag: String?, text: String) {
            var request = URLRequest(url: URL(string: "\(url)/dav/calendars/ann/inbox/\(id).ics")!)
            request.httpMethod = method
            request.setValue("Basic " + Data("ann:password ann".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
            request.setValue("DAVx5/4.4.3-ose (dav4jvm; okhttp/4.12.0) Android/14", forHTTPHeaderField: "User-Agent")
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            request.httpBody = body.map { Data($0.utf8) }
            let (data, response) = try await URLSession.shared.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            return (http.statusCode, http.value(forHTTPHeaderField: "ETag"), String(decoding: data, as: UTF8.self))
        }

        /// The phone edits its copy of the task while `todo` renames it: the phone's PUT is refused.
        func refusedPhoneEdit() async throws {
            let phone = try await dav("GET")
            try await todo("edit", id, "--text", "Soy milk")
            try await todo("sync")
            let edited = phone.text.replacingOccurrences(of: "SUMMARY:Milk", with: "SUMMARY:Oat milk\r\nDESCRIPTION:two litres")
            let put = try await dav("PUT", headers: ["If-Match": try #require(phone.etag), "Content-Type": "text/calendar"], body: edited)
            #expect(put.status == 412)
        }
    }

    @Test func aRefusedPhoneEditIsInTheConflictHistoryAfterTheNextSync() async throws {
        let desk = try await Desk.make()
        defer { _ = desk.server.stop() }
        try await desk.refusedPhoneEdit()
        try await desk.todo("sync")
        let entries = try await desk.conflicts()
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry["item"] as? String == desk.id)
        #expect(entry["resolution"] as? String == "refusedOnServer")
        #expect(entry["fields"] as? [String] == ["text"])
        #expect((entry["lost"] as? [String: Any])?["text"] as? String == "Oat milk")
        #expect((entry["lost"] as? [String: Any])?["notes"] as? String == "two litres")
        #expect((entry["reason"] as? String)?.contains("DAVx5") == true)
        #expect(try await desk.todo("conflicts").contains("not stored: DAVx5's edit"))
    }

    @Test func restoringARefusedPhoneEditWritesItAndThePhoneReadsIt() async throws {
        let desk = try await Desk.make()
        defer { _ = desk.server.stop() }
        try await desk.refusedPhoneEdit()
        try await desk.todo("sync")
        let id = try #require(try await desk.conflicts().first?["id"] as? Double)
        try await desk.todo("restore", String(Int(id)))
        try await desk.todo("sync")
        let phone = try await desk.dav("GET")
        #expect(phone.text.contains("SUMMARY:Oat milk"))
        #expect(phone.text.contains("DESCRIPTION:two litres"))
    }

    /// Ann's laptop, signed in and synced before the phone's edit is refused.
    private func laptop(_ desk: Desk) async throws -> URL {
        let laptop = try TempDir.make()
        #expect(try await TodoCLI.run(["sign-in", "--server", desk.url, "--user", "ann", "--password-stdin"], home: laptop, input: "password ann\n").status == 0)
        #expect(try await TodoCLI.run(["sync", "--server", desk.url], home: laptop).status == 0)
        return laptop
    }

    private func laptopsConflicts(_ laptop: URL, _ desk: Desk) async throws -> [[String: Any]] {
        #expect(try await TodoCLI.run(["sync", "--server", desk.url], home: laptop).status == 0)
        let out = try await TodoCLI.run(["conflicts", "--json", "--server", desk.url], home: laptop).out
        return try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]])
    }

    @Test func aPhoneEditRestoredOnOneDeviceIsNotOfferedToAnotherThatHadNotSyncedIt() async throws {
        let desk = try await Desk.make()
        defer { _ = desk.server.stop() }
        let laptop = try await laptop(desk)
        try await desk.refusedPhoneEdit()
        try await desk.todo("sync")
        let id = try #require(try await desk.conflicts().first?["id"] as? Double)
        try await desk.todo("restore", String(Int(id)))
        try await desk.todo("sync")
        #expect(try await laptopsConflicts(laptop, desk).isEmpty)
    }

    @Test func aPhoneEditClearedFromOneDevicesHistoryIsNotOfferedToAnother() async throws {
        let desk = try await Desk.make()
        defer { _ = desk.server.stop() }
        let laptop = try await laptop(desk)
        try await desk.refusedPhoneEdit()
        try await desk.todo("sync")
        try await desk.todo("conflicts", "--clear")
        try await desk.todo("sync")
        #expect(try await laptopsConflicts(laptop, desk).isEmpty)
    }

    @Test func aPhoneEditNotYetSettledIsOfferedToTheOtherDevice() async throws {
        let desk = try await Desk.make()
        defer { _ = desk.server.stop() }
        let laptop = try await laptop(desk)
        try await desk.refusedPhoneEdit()
        try await desk.todo("sync")
        #expect(try await laptopsConflicts(laptop, desk).count == 1)
    }

    @Test func aRefusedPhoneEditIsRecordedOnceEvenAfterTheHistoryIsCleared() async throws {
        let desk = try await Desk.make()
        defer { _ = desk.server.stop() }
        try await desk.refusedPhoneEdit()
        try await desk.todo("sync")
        try await desk.todo("sync")
        #expect(try await desk.conflicts().count == 1)
        try await desk.todo("conflicts", "--clear")
        try await desk.todo("sync")
        #expect(try await desk.conflicts().isEmpty)
    }

    @Test func aRefusedPhoneDeletionIsInTheHistoryAndRestoringItDeletesTheTask() async throws {
        let desk = try await Desk.make()
        defer { _ = desk.server.stop() }
        let phone = try await desk.dav("GET")
        try await desk.todo("edit", desk.id, "--notes", "semi-skimmed")
        try await desk.todo("sync")
        #expect(try await desk.dav("DELETE", headers: ["If-Match": try #require(phone.etag)]).status == 412)
        try await desk.todo("sync")
        let entry = try #require(try await desk.conflicts().first)
        #expect(entry["kind"] as? String == "deletedLocally")
        #expect(try await desk.todo("conflicts").contains("lost: the deletion"))
        try await desk.todo("restore", String(Int(try #require(entry["id"] as? Double))))
        try await desk.todo("sync")
        #expect(try await desk.dav("GET").status == 404)
    }

    /// An operator's fixed schema holds the tables `todo` made (its lists and items), not this one.
    @Test func syncWorksWithAFixedSchemaServerThatHasNoLostEditTable() async throws {
        let database = try TempDir.make().appendingPathComponent("server.sqlite").path
        let writer = try TempDir.make()
        let dynamic = try await ServerProcess.start(arguments: ["--database", database])
        _ = try await TodoCLI.run(["add", "Milk", "--list", "Groceries", "--server", "http://127.0.0.1:\(dynamic.port)"], home: writer)
        #expect(try await TodoCLI.run(["sync", "--server", "http://127.0.0.1:\(dynamic.port)"], home: writer).status == 0)
        _ = dynamic.stop()
        let fixed = try await ServerProcess.start(arguments: ["--database", database, "--fixed-schema"])
        defer { _ = fixed.stop() }
        let reader = try TempDir.make()
        let sync = try await TodoCLI.run(["sync", "--server", "http://127.0.0.1:\(fixed.port)"], home: reader)
        #expect(sync.status == 0, "\(sync.err)")
        #expect(try await TodoCLI.run(["list", "--server", "http://127.0.0.1:\(fixed.port)"], home: reader).out.contains("Milk"))
    }
}
