import Foundation
import Testing

/// Bad input gets a clear 4xx, and nothing is stored.
@Suite struct HostileInputTests {
    @Test(arguments: DAVStore.allCases)
    func malformedICalendarIsRefused(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let reply = try await account.put(account.inbox + "broken.ics", "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:no end\r\n")
        #expect(reply.status == 403)
        #expect(reply.text.contains("valid-calendar-data"))
        #expect(try await account.dav("GET", account.inbox + "broken.ics").status == 404)
    }

    @Test(arguments: DAVStore.allCases)
    func anEventIsRefusedFromATaskList(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let event = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "UID:ev1", "DTSTART:20261201T100000Z", "SUMMARY:Meeting", "END:VEVENT", "END:VCALENDAR", ""].joined(separator: "\r\n")
        let reply = try await account.put(account.inbox + "ev1.ics", event)
        #expect(reply.status == 403)
        #expect(reply.text.contains("supported-calendar-component"))
        #expect(try await account.item("ev1") == nil)
    }

    @Test(arguments: DAVStore.allCases)
    func twoUIDsInOneResourceAreRefused(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let text = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:one", "SUMMARY:a", "END:VTODO", "BEGIN:VTODO", "UID:two", "SUMMARY:b", "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n")
        #expect(try await account.put(account.inbox + "one.ics", text).status == 403)
        #expect(try await account.item("one") == nil)
    }

    @Test func xmlWithEntitiesIsRefused() async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let body = #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&lol2;</d:displayname></d:prop></d:propfind>"#
        let reply = try await account.xml("PROPFIND", account.home, depth: "0", body)
        #expect(reply.status == 400)
        #expect(reply.text.contains("document type declaration"))
    }

    @Test func malformedXMLIsRefused() async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let reply = try await account.xml("REPORT", account.inbox, "<d:sync-collection xmlns:d=\"DAV:\"><d:sync-token>")
        #expect(reply.status == 400)
    }

    @Test func aResourceOverTheSizeLimitIsRefused() async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let uid = Tasks.uid()
        let huge = Tasks.vtodo(uid, "Big", ["DESCRIPTION:" + String(repeating: "x", count: 300_000)])
        let reply = try await account.put(account.inbox + "\(uid).ics", huge)
        #expect(reply.status == 413)
        #expect(try await account.item(uid) == nil)
    }
}
