import Foundation
import Testing

/// `sync-collection` (RFC 6578): what changed since a token, deletions and departures as 404
/// members, and `DAV:limit` with a continuation that loses nothing.
@Suite struct SyncCollectionTests {
    @Test func aSyncAskingForCalendarDataAnswersEachTaskWithItsOwnText() async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let list = try await account.makeList("Chores")
        let a = Tasks.uid(), b = Tasks.uid()
        try await account.store(list.path + "\(a).ics", Tasks.vtodo(a, "Sweep"))
        try await account.store(list.path + "\(b).ics", Tasks.vtodo(b, "Dust"))
        let body = #"<?xml version="1.0"?><d:sync-collection xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:sync-token/>"#
            + "<d:sync-level>1</d:sync-level><d:prop><d:getetag/><c:calendar-data/></d:prop></d:sync-collection>"
        let reply = try await account.xml("REPORT", list.path, body).multiStatus
        #expect(reply.response("\(a).ics")?.properties["calendar-data"]?.contains("SUMMARY:Sweep") == true)
        #expect(reply.response("\(b).ics")?.properties["calendar-data"]?.contains("SUMMARY:Dust") == true)
    }

    @Test(arguments: DAVStore.allCases)
    func aFirstSyncListsEveryTaskAndASecondOnlyWhatChanged(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Chores")
        let a = Tasks.uid(), b = Tasks.uid()
        try await account.store(list.path + "\(a).ics", Tasks.vtodo(a, "A"))
        try await account.store(list.path + "\(b).ics", Tasks.vtodo(b, "B"))
        let first = try await account.xml("REPORT", list.path, Tasks.syncCollection("")).multiStatus
        #expect(Set(first.responses.map(\.href)) == [list.path + "\(a).ics", list.path + "\(b).ics"])
        let token = try #require(first.syncToken)
        try await account.store(list.path + "\(b).ics", Tasks.vtodo(b, "B2"))
        let second = try await account.xml("REPORT", list.path, Tasks.syncCollection(token)).multiStatus
        #expect(second.responses.map(\.href) == [list.path + "\(b).ics"])
        #expect(second.responses.first?.properties["getetag"] != nil)
        let third = try await account.xml("REPORT", list.path, Tasks.syncCollection(try #require(second.syncToken))).multiStatus
        #expect(third.responses.isEmpty)
    }

    @Test(arguments: DAVStore.allCases)
    func deletedAndMovedTasksAreReportedGone(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let home = try await account.makeList("Home"), work = try await account.makeList("Work")
        let gone = Tasks.uid(), moved = Tasks.uid()
        try await account.store(home.path + "\(gone).ics", Tasks.vtodo(gone, "Gone"))
        try await account.store(home.path + "\(moved).ics", Tasks.vtodo(moved, "Moved"))
        let token = try #require(try await account.xml("REPORT", home.path, Tasks.syncCollection("")).multiStatus.syncToken)
        let workToken = try #require(try await account.xml("REPORT", work.path, Tasks.syncCollection("")).multiStatus.syncToken)
        _ = try await account.dav("DELETE", home.path + "\(gone).ics")
        _ = try await account.table("PATCH", "/tables/TodoItem/\(moved)", ["listId": work.id])
        let report = try await account.xml("REPORT", home.path, Tasks.syncCollection(token)).multiStatus
        #expect(Set(report.gone) == [home.path + "\(gone).ics", home.path + "\(moved).ics"])
        let workReport = try await account.xml("REPORT", work.path, Tasks.syncCollection(workToken)).multiStatus
        #expect(workReport.response(work.path + "\(moved).ics")?.status == nil)
        #expect(workReport.response(work.path + "\(moved).ics")?.properties["getetag"] != nil)
    }

    @Test(arguments: DAVStore.allCases)
    func aLimitedReportContinuesWithoutLosingAChange(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Many")
        var uids: Set<String> = []
        for n in 0..<7 {
            let uid = Tasks.uid()
            uids.insert(uid)
            try await account.store(list.path + "\(uid).ics", Tasks.vtodo(uid, "Task \(n)"))
        }
        var seen: Set<String> = [], token = "", rounds = 0
        while true {
            rounds += 1
            let reply = try await account.xml("REPORT", list.path, Tasks.syncCollection(token, limit: 3))
            #expect(reply.status == 207)
            let report = reply.multiStatus
            let truncated = report.response(list.path)?.status == 507
            for response in report.responses where response.href != list.path { seen.insert(String(response.href.dropFirst(list.path.count).dropLast(4))) }
            token = try #require(report.syncToken)
            if !truncated { break }
            #expect(rounds < 10)
        }
        #expect(seen == uids)
        #expect(rounds == 3)
    }

    @Test(arguments: DAVStore.allCases)
    func anUnknownTokenIsRefusedAsInvalid(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        for token in ["http://example.com/sync/1", "urn:x-offlinetodo:sync:2999-01-01T00:00:00.000Z", "urn:x-offlinetodo:sync:garbage"] {
            let reply = try await account.xml("REPORT", account.inbox, Tasks.syncCollection(token))
            #expect(reply.status == 403)
            #expect(reply.text.contains("valid-sync-token"))
        }
    }

    @Test(arguments: DAVStore.allCases)
    func theCTagChangesWithEveryWrite(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let ctag = { try await account.xml("PROPFIND", account.inbox, depth: "0", Tasks.propfind(["cs:getctag"])).multiStatus.responses.first?.properties["getctag"] }
        let before = try await ctag()
        let uid = Tasks.uid()
        try await account.store(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Changed"))
        let after = try await ctag()
        #expect(before != nil && after != nil && before != after)
    }
}
