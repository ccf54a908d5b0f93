import Foundation
import Testing

/// `calendar-query` and `calendar-multiget` (RFC 4791 §7.8, §7.9, §9.9).
@Suite struct CalendarQueryTests {
    @Test(arguments: DAVStore.allCases)
    func openTasksAreThoseWithoutCOMPLETED(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let open = Tasks.uid(), done = Tasks.uid()
        try await account.store(account.inbox + "\(open).ics", Tasks.vtodo(open, "Open"))
        try await account.store(account.inbox + "\(done).ics", Tasks.vtodo(done, "Done", ["STATUS:COMPLETED", "COMPLETED:20261126T100000Z"]))
        let reply = try await account.xml("REPORT", account.inbox, Tasks.calendarQuery(#"<c:prop-filter name="COMPLETED"><c:is-not-defined/></c:prop-filter>"#))
        #expect(reply.multiStatus.responses.map(\.href) == [account.inbox + "\(open).ics"])
    }

    @Test(arguments: DAVStore.allCases)
    func aTimeRangeFindsTasksDueInIt(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let december = Tasks.uid(), january = Tasks.uid(), undated = Tasks.uid()
        try await account.store(account.inbox + "\(december).ics", Tasks.vtodo(december, "Dec", ["DUE;VALUE=DATE:20261210"]))
        try await account.store(account.inbox + "\(january).ics", Tasks.vtodo(january, "Jan", ["DUE;VALUE=DATE:20270110"]))
        try await account.store(account.inbox + "\(undated).ics", Tasks.vtodo(undated, "Whenever"))
        let reply = try await account.xml("REPORT", account.inbox, Tasks.calendarQuery(#"<c:time-range start="20261201T000000Z" end="20270101T000000Z"/>"#))
        // §9.9: a task with neither DTSTART, DUE, COMPLETED nor CREATED overlaps every range.
        #expect(Set(reply.multiStatus.responses.map(\.href)) == [account.inbox + "\(december).ics", account.inbox + "\(undated).ics"])
    }

    @Test(arguments: DAVStore.allCases)
    func aTextMatchFindsACategory(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let tagged = Tasks.uid(), other = Tasks.uid()
        try await account.store(account.inbox + "\(tagged).ics", Tasks.vtodo(tagged, "Tagged", ["CATEGORIES:errand,Home"]))
        try await account.store(account.inbox + "\(other).ics", Tasks.vtodo(other, "Other"))
        let reply = try await account.xml("REPORT", account.inbox, Tasks.calendarQuery(#"<c:prop-filter name="CATEGORIES"><c:text-match>home</c:text-match></c:prop-filter>"#))
        #expect(reply.multiStatus.responses.map(\.href) == [account.inbox + "\(tagged).ics"])
    }

    @Test(arguments: DAVStore.allCases)
    func multigetAnswersEachHrefOrNotFound(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let uid = Tasks.uid()
        let put = try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Fetched"))
        let reply = try await account.xml("REPORT", account.inbox, Tasks.multiget([account.inbox + "\(uid).ics", account.inbox + "missing.ics"])).multiStatus
        let found = try #require(reply.response("\(uid).ics"))
        #expect(found.properties["getetag"] == put.etag)
        #expect(found.properties["calendar-data"]?.contains("SUMMARY:Fetched") == true)
        #expect(reply.response("missing.ics")?.status == 404)
    }
}
