@testable import CalDAV
import Foundation
import Testing

/// `C:expand` (RFC 4791 §9.6.5): a repeating task's instances in a range, each a VTODO of its own.
@Suite struct ExpandTests {
    private func calendarData(_ range: (String, String)) -> String {
        #"<d:prop><d:getetag/><c:calendar-data><c:expand start="\#(range.0)" end="\#(range.1)"/></c:calendar-data></d:prop>"#
    }

    private func monthly(_ account: DAVAccount) async throws -> String {
        let uid = Tasks.uid()
        try await account.store(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Pay rent", ["DTSTART:20260112T120000Z", "RRULE:FREQ=MONTHLY"]))
        return uid
    }

    @Test(arguments: DAVStore.allCases)
    func aQueryWithExpandAnswersTheInstanceInTheRangeAsATaskOfItsOwn(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let uid = try await monthly(account)
        let body = #"<?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
            + calendarData(("20260212T000000Z", "20260213T000000Z"))
            + #"<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"><c:time-range start="20260212T000000Z" end="20260213T000000Z"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>"#
        let reply = try await account.xml("REPORT", account.inbox, body)
        let data = try #require(reply.multiStatus.response("\(uid).ics")?.properties["calendar-data"])
        #expect(data.contains("RECURRENCE-ID:20260212T120000Z\r\n"))
        #expect(data.contains("DTSTART:20260212T120000Z\r\n"))
        #expect(!data.contains("RRULE"))
        #expect(data.components(separatedBy: "BEGIN:VTODO").count == 2)
    }

    @Test(arguments: DAVStore.allCases)
    func aMultigetWithExpandAnswersEveryInstanceInTheRange(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let uid = try await monthly(account)
        let body = #"<?xml version="1.0"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
            + calendarData(("20260101T000000Z", "20260401T000000Z")) + "<d:href>\(account.inbox)\(uid).ics</d:href></c:calendar-multiget>"
        let data = try #require(try await account.xml("REPORT", account.inbox, body).multiStatus.response("\(uid).ics")?.properties["calendar-data"])
        for month in ["01", "02", "03"] { #expect(data.contains("RECURRENCE-ID:2026\(month)12T120000Z\r\n")) }
        #expect(data.components(separatedBy: "BEGIN:VTODO").count == 4)
    }

    @Test(arguments: DAVStore.allCases)
    func aTaskThatDoesNotRepeatComesBackAsItIs(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let uid = Tasks.uid()
        try await account.store(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Once", ["DTSTART:20260212T120000Z"]))
        let body = #"<?xml version="1.0"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
            + calendarData(("20260101T000000Z", "20260401T000000Z")) + "<d:href>\(account.inbox)\(uid).ics</d:href></c:calendar-multiget>"
        let data = try #require(try await account.xml("REPORT", account.inbox, body).multiStatus.response("\(uid).ics")?.properties["calendar-data"])
        let whole = try await account.dav("GET", account.inbox + "\(uid).ics").text
        #expect(data.trimmingCharacters(in: .whitespacesAndNewlines) == whole.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test(arguments: DAVStore.allCases)
    func aRuleWithPartsNotWalkedComesBackUnexpandedRatherThanWithInstancesItDoesNotHave(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let uid = Tasks.uid()
        try await account.store(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Pay rent", ["DTSTART:20260101T120000Z", "RRULE:FREQ=MONTHLY;BYMONTHDAY=15"]))
        let body = #"<?xml version="1.0"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">"#
            + calendarData(("20260101T000000Z", "20260401T000000Z")) + "<d:href>\(account.inbox)\(uid).ics</d:href></c:calendar-multiget>"
        let data = try #require(try await account.xml("REPORT", account.inbox, body).multiStatus.response("\(uid).ics")?.properties["calendar-data"])
        #expect(data.contains("RRULE:FREQ=MONTHLY;BYMONTHDAY=15"))
        #expect(!data.contains("RECURRENCE-ID"))
    }

    @Test func theFirstInstanceIsWrittenOutWhenItIsNotOnANamedWeekday() throws {
        // 2026-01-08 is a Thursday: the instances are that Thursday, then Mondays, three in all.
        let text = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//T//EN", "BEGIN:VTODO", "UID:t", "DTSTAMP:20260101T000000Z",
                    "DTSTART:20260108T090000Z", "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3", "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n")
        let range = CalendarQueryFilter.TimeRange(start: CalendarQueryFilter.instant("20260101T000000Z"), end: CalendarQueryFilter.instant("20260301T000000Z"))
        var budget = ReportBudget()
        let expanded = try #require(ExpandedTask.text(text, over: range, budget: &budget))
        let instants: [String] = expanded.components(separatedBy: "RECURRENCE-ID:").dropFirst().map { (part: String) -> String in String(part.prefix(16)) }
        #expect(instants == ["20260108T090000Z", "20260112T090000Z", "20260119T090000Z"])
    }

    @Test(arguments: DAVStore.allCases)
    func anExpandWithoutAnEndIsRefused(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let body = #"<?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><c:calendar-data><c:expand start="20260101T000000Z"/></c:calendar-data></d:prop></c:calendar-query>"#
        let reply = try await account.xml("REPORT", account.inbox, body)
        #expect(reply.status == 400)
        #expect(reply.text.contains("valid-filter"))
    }
}
