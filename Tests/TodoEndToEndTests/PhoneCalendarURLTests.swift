import Foundation
import ServerTestSupport
import Testing

/// A phone's calendar keeps its URL through `todo share`, `unshare` and `leave`: the real
/// python-caldav client (`scripts/caldav_phone.py`) finds and syncs calendars against a real
/// todo-server while `todo` shares the list. DAVx5 removes a calendar that disappears, with the
/// edits it had not sent.
@Suite struct PhoneCalendarURLTests {
    typealias Household = SharingCommandTests.Household

    private func phone(_ h: Household, _ user: String, _ arguments: [String]) async throws -> Any {
        try await CalDAVPhone.run(h, user, arguments)
    }

    private func calendars(_ h: Household, _ user: String, named name: String) async throws -> [String] {
        try await CalDAVPhone.calendars(h, user, named: name)
    }

    /// Ann's Groceries, made and synced by `todo`; answers its URL on her phone.
    private func groceries(_ h: Household) async throws -> String {
        #expect(try await h.todo(["add", "milk", "--list", "Groceries"], h.ann).status == 0)
        #expect(try await h.todo(["sync"], h.ann).status == 0)
        return try #require(try await calendars(h, "ann", named: "Groceries").first)
    }

    @Test func sharingAndUnsharingKeepTheCalendarsURLOnTheOwnersPhone() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        let url = try await groceries(h)
        #expect(try await h.todo(["share", "Groceries", "--with", "bob"], h.ann).status == 0)
        #expect(try await calendars(h, "ann", named: "Groceries") == [url])
        #expect(try await h.todo(["unshare", "Groceries", "--with", "bob"], h.ann).status == 0)
        #expect(try await calendars(h, "ann", named: "Groceries") == [url])
    }

    @Test func theMemberFindsTheSharedListAtItsIdInTheirHome() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        let url = try await groceries(h)
        #expect(try await h.todo(["share", "Groceries", "--with", "bob"], h.ann).status == 0)
        let listId = try #require(URL(string: url)?.lastPathComponent)
        #expect(try await calendars(h, "bob", named: "Groceries") == [url.replacingOccurrences(of: "/calendars/ann/", with: "/calendars/bob/")])
        #expect(url.hasSuffix("/dav/calendars/ann/\(listId)/"))
    }

    @Test func theLastMemberLeavingKeepsTheCalendarsURLOnTheOwnersPhone() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        let url = try await groceries(h)
        #expect(try await h.todo(["share", "Groceries", "--with", "bob"], h.ann).status == 0)
        #expect(try await h.todo(["sync"], h.bob).status == 0)
        #expect(try await h.todo(["leave", "Groceries"], h.bob).status == 0)
        #expect(try await h.todo(["sync"], h.ann).status == 0)
        #expect(try await calendars(h, "ann", named: "Groceries") == [url])
    }

    @Test func aPhonesEditQueuedAcrossAShareLandsAndItsNextSyncHasIt() async throws {
        let h = try await Household.make()
        defer { h.server.stop() }
        let url = try await groceries(h)
        let uid = UUID().uuidString.lowercased()
        let added = try #require(try await phone(h, "ann", ["put", url + "\(uid).ics", uid, "Bread"]) as? [String: Any])
        let etag = try #require(added["etag"] as? String)
        let before = try #require(try await phone(h, "ann", ["sync", url]) as? [String: Any])
        let token = try #require(before["token"] as? String)
        #expect(try await h.todo(["share", "Groceries", "--with", "bob"], h.ann).status == 0)

        let queued = try #require(try await phone(h, "ann", ["put", url + "\(uid).ics", uid, "Rye bread", etag]) as? [String: Any])
        #expect([201, 204].contains(queued["status"] as? Int))
        #expect(try await h.todo(["sync"], h.ann).status == 0)
        #expect(try await h.todo(["list"], h.ann).out.contains("Rye bread"))
        let after = try #require(try await phone(h, "ann", ["sync", url, token]) as? [String: Any])
        #expect((after["tasks"] as? [String: String])?.values.contains("Rye bread") == true)
    }
}
