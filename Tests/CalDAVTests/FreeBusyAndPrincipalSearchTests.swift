import Foundation
import Testing

/// Reports a task server answers without having what they ask about: free-busy time (only events
/// make it) and other principals (an account sees only its own).
@Suite struct FreeBusyAndPrincipalSearchTests {
    @Test(arguments: DAVStore.allCases)
    func aFreeBusyQueryOnAListAnswersAnEmptyVFREEBUSYOverTheRange(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let uid = Tasks.uid()
        try await account.store(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Busy?", ["DUE:20260110T090000Z"]))
        let body = #"<?xml version="1.0"?><c:free-busy-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:time-range start="20260110T000000Z" end="20260111T000000Z"/></c:free-busy-query>"#
        let reply = try await account.xml("REPORT", account.inbox, depth: "1", body)
        #expect(reply.status == 200)
        #expect(reply.headers["content-type"]?.hasPrefix("text/calendar") == true)
        #expect(reply.text.contains("BEGIN:VFREEBUSY\r\n") && reply.text.contains("DTSTART:20260110T000000Z\r\n") && reply.text.contains("DTEND:20260111T000000Z\r\n"))
        #expect(!reply.text.contains("FREEBUSY:"))
    }

    @Test(arguments: DAVStore.allCases)
    func aFreeBusyQueryWithoutARangeIsRefused(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let body = #"<?xml version="1.0"?><c:free-busy-query xmlns:c="urn:ietf:params:xml:ns:caldav"/>"#
        let reply = try await account.xml("REPORT", account.inbox, depth: "1", body)
        #expect(reply.status == 400)
        #expect(reply.text.contains("valid-filter"))
    }

    @Test(arguments: DAVStore.allCases)
    func aPrincipalSearchFindsNoOneNotEvenAnotherAccount(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let account = try await server.addAccount(), other = try await server.addAccount()
        let body = #"<?xml version="1.0"?><d:principal-property-search xmlns:d="DAV:"><d:property-search><d:prop><d:displayname/></d:prop><d:match>\#(other.name)</d:match></d:property-search><d:prop><d:displayname/></d:prop></d:principal-property-search>"#
        let reply = try await account.xml("REPORT", "/dav/", depth: "0", body)
        #expect(reply.status == 207)
        #expect(reply.multiStatus.responses.isEmpty)
        #expect(!reply.text.contains(other.name))
    }
}
