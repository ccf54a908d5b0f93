import Foundation
import Testing

/// Issue #43: the request sequences of DAVx5 and tasks.org on a task list, as their source builds
/// them. Each body and header is copied from the client's code (cited above it); each test is one
/// step of a sync and asserts what the client relies on.
///
/// - DAVx5: bitfireAT/davx5-ose 2534c16b00cd5351e1a51614090f7ccb7a9922bf (core/src/main/kotlin/at/
///   bitfire/davdroid/sync/SyncManager.kt, TasksSyncManager.kt, TaskSyncer.kt, resource/remote/
///   BaseWebDavCollection.kt, CalDavCollection.kt), over dav4jvm 4.0.1 (bitfireAT/dav4jvm
///   a29748c90aabab55258815915655138636da8144, src/main/kotlin/at/bitfire/dav4jvm/ktor/).
/// - tasks.org: tasks/tasks e5587e1ac9f43b7a4414cb5f1b1e37155a1c31db (kmp/src/jvmCommonMain/kotlin/
///   org/tasks/caldav/CaldavClient.kt, CaldavSynchronizer.kt; kmp/src/commonMain/kotlin/org/tasks/
///   data/TaskMover.kt), over dav4jvm af443c2fbb7760a50e138e591b54cc62887f1e58 (okhttp/).
@Suite struct ClientSequenceTests {
    /// The order tasks.org's two requests of a move come in: it syncs its lists in the order the
    /// home's PROPFIND lists them, and in each pushes the moved-away DELETEs before the PUTs.
    enum MoveOrder: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case putInTheNewListFirst, deleteInTheOldListFirst
        var testDescription: String { rawValue }
    }

    // MARK: DAVx5

    @Test(arguments: DAVStore.allCases)
    func davx5ReadsCapabilitiesAndSyncStateInOneDepthZeroPropfind(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Chores")
        let reply = try await account.davx5("PROPFIND", list.path, depth: "0", DAVx5Requests.capabilities)
        #expect(reply.status == 207)
        let status = reply.multiStatus
        #expect(status.responses.map(\.href) == [list.path])
        let own = try #require(status.response(list.path))
        let reports = own.properties["supported-report-set"] ?? ""
        #expect(reports.contains("calendar-query") && reports.contains("calendar-multiget"))
        // SyncState: the sync-token when there is one, else the CTag (ResponseExt.kt syncState()).
        let token = try #require(own.properties["sync-token"])
        #expect(own.properties["getctag"] == token)
        #expect(own.properties["max-resource-size"] == String(256 * 1024))
        #expect(own.missing.contains("supported-address-data"))
    }

    @Test(arguments: DAVStore.allCases)
    func davx5SeesANewSyncStateAfterItsUploadSoItListsAgain(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Chores")
        let syncState = {
            try await account.davx5("PROPFIND", list.path, depth: "0", DAVx5Requests.syncState).multiStatus.response(list.path)?.properties["sync-token"]
        }
        let before = try await syncState()
        let uid = Tasks.uid()
        #expect(try await account.davx5Put(list.path + "\(uid).ics", DAVx5Requests.vtodo(uid, "Water the plants"), ["If-None-Match": "*"]).status == 201)
        let after = try await syncState()
        #expect(before != nil && after != nil && before != after)
    }

    @Test(arguments: DAVStore.allCases)
    func davx5ListsETagsByCalendarQueryThenFetchesInBatchesOfTen(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Many")
        var uids: [String] = []
        for n in 0..<23 {
            let uid = Tasks.uid()
            uids.append(uid)
            try await account.store(list.path + "\(uid).ics", Tasks.vtodo(uid, "Task \(n)"))
        }
        let hrefs = Set(uids.map { list.path + "\($0).ics" })
        // SyncAlgorithm.PROPFIND_REPORT for tasks whatever the capabilities: never sync-collection.
        let listing = try await account.davx5("REPORT", list.path, depth: "1", DAVx5Requests.calendarQuery)
        #expect(listing.status == 207)
        let members = listing.multiStatus.responses
        #expect(Set(members.map(\.href)) == hrefs)
        #expect(members.count == hrefs.count)
        var etags: [String: String] = [:]
        for member in members {
            let etag = member.properties["getetag"]
            #expect(etag?.hasPrefix("\"") == true, "\(member.href) listed without an ETag")
            etags[member.href] = etag
        }
        // SyncManager.MULTIGET_BATCH_SIZE = 10.
        let batches = stride(from: 0, to: members.count, by: DAVx5Requests.multigetBatchSize).map {
            Array(members[$0..<min($0 + DAVx5Requests.multigetBatchSize, members.count)].map(\.href))
        }
        #expect(batches.map(\.count) == [10, 10, 3])
        var fetched: Set<String> = []
        for batch in batches {
            let reply = try await account.davx5("REPORT", list.path, depth: nil, DAVx5Requests.multiget(batch))
            #expect(reply.status == 207)
            let responses = reply.multiStatus.responses
            #expect(responses.map(\.href) == batch)
            for response in responses {
                let uid = String(response.href.dropFirst(list.path.count).dropLast(4))
                #expect(response.status == nil)
                #expect(response.properties["getetag"] == etags[response.href])
                #expect(response.properties["calendar-data"]?.contains("UID:\(uid)") == true)
                #expect(response.properties["getcontenttype"]?.hasPrefix("text/calendar") == true)
                fetched.insert(response.href)
            }
        }
        #expect(fetched == hrefs)
    }

    @Test(arguments: DAVStore.allCases)
    func davx5UploadsANewTaskWithIfNoneMatchStarAndAnEditWithIfMatch(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Errands")
        let uid = Tasks.uid()
        let path = list.path + "\(uid).ics"
        // createMember: If-None-Match: *, the resource named DavUtils.fileNameFromUid(uid, "ics").
        let created = try await account.davx5Put(path, DAVx5Requests.vtodo(uid, "Buy stamps"), ["If-None-Match": "*"])
        #expect(created.status == 201)
        let first = try #require(created.etag)
        // onSuccessfulUpload keeps the PUT's ETag: the listing must show the same, or DAVx5 downloads again.
        #expect(try await account.davx5ListedETags(list.path)[path] == first)
        // updateMember: If-Match with the kept ETag, quoted again (QuotedStringUtils.asQuotedString).
        let edited = try await account.davx5Put(path, DAVx5Requests.vtodo(uid, "Buy stamps and envelopes", sequence: 1), ["If-Match": first])
        #expect(edited.status == 204)
        let second = try #require(edited.etag)
        #expect(second != first)
        #expect(try await account.davx5ListedETags(list.path)[path] == second)
        let item = try #require(try await account.item(uid))
        #expect(item["text"] as? String == "Buy stamps and envelopes")
        #expect(item["listId"] as? String == list.id)
        // A second "new" upload of the same name is refused, not written over.
        #expect(try await account.davx5Put(path, DAVx5Requests.vtodo(uid, "Duplicate"), ["If-None-Match": "*"]).status == 412)
        #expect(try await account.item(uid)?["text"] as? String == "Buy stamps and envelopes")
    }

    @Test(arguments: DAVStore.allCases)
    func davx5sEditOfAnOlderVersionIsAnsweredWithoutAnETagSoItsNextListingFetchesTheMerge(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Errands")
        let uid = Tasks.uid()
        let path = list.path + "\(uid).ics"
        let created = try await account.davx5Put(path, DAVx5Requests.vtodo(uid, "Call the plumber"), ["If-None-Match": "*"])
        let known = try #require(created.etag)
        // Meanwhile todo adds notes.
        #expect(try await account.table("PATCH", "/tables/TodoItem/\(uid)", ["notes": "after 5pm"]).status == 200)
        let edited = try await account.davx5Put(path, DAVx5Requests.vtodo(uid, "Call the plumber today", sequence: 1), ["If-Match": known])
        #expect(edited.status == 204)
        // PutMemberResult.eTag nil: clearDirty keeps no ETag, so the next listing's ETag differs from it.
        #expect(edited.etag == nil)
        let listed = try #require(try await account.davx5ListedETags(list.path)[path])
        #expect(listed != known)
        let fetched = try await account.davx5("REPORT", list.path, depth: nil, DAVx5Requests.multiget([path])).multiStatus.response(path)
        #expect(fetched?.properties["getetag"] == listed)
        let text = fetched?.properties["calendar-data"] ?? ""
        #expect(text.contains("SUMMARY:Call the plumber today") && text.contains("DESCRIPTION:after 5pm"))
    }

    @Test(arguments: DAVStore.allCases)
    func davx5sEditQueuedWhileTheListWasSharedLandsAtTheCollectionItAlwaysHad(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let account = try await server.addAccount(), member = try await server.addAccount()
        let list = try await account.makeList("Errands")
        let uid = Tasks.uid()
        let path = list.path + "\(uid).ics"
        let kept = try #require(try await account.davx5Put(path, DAVx5Requests.vtodo(uid, "Buy stamps"), ["If-None-Match": "*"]).etag)
        let before = try await account.davx5("PROPFIND", list.path, depth: "0", DAVx5Requests.syncState).multiStatus.response(list.path)?.properties["sync-token"]
        let space = try await account.newSpace(with: member)
        try await account.moveList(list.id, from: nil, to: space)
        // The next sync: uploads first, to the collection's URL it kept, with the ETag it kept.
        let edited = try await account.davx5Put(path, DAVx5Requests.vtodo(uid, "Buy stamps and envelopes", sequence: 1), ["If-Match": kept])
        #expect(edited.status == 204)
        let after = try await account.davx5("PROPFIND", list.path, depth: "0", DAVx5Requests.syncState).multiStatus.response(list.path)?.properties["sync-token"]
        #expect(after != nil && after != before)
        #expect(try await account.davx5ListedETags(list.path)[path] == edited.etag)
        #expect(try await account.item(uid, space: space)?["text"] as? String == "Buy stamps and envelopes")
    }

    @Test(arguments: DAVStore.allCases)
    func davx5DeletesWithIfMatch(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Errands")
        let uid = Tasks.uid(), kept = Tasks.uid()
        let path = list.path + "\(uid).ics"
        let created = try await account.davx5Put(path, DAVx5Requests.vtodo(uid, "Cancel the gym"), ["If-None-Match": "*"])
        try await account.store(list.path + "\(kept).ics", Tasks.vtodo(kept, "Stay"))
        let etag = try #require(created.etag)
        // deleteMember: If-Match with the last known ETag (no Schedule-Tag on a task).
        let deleted = try await account.dav("DELETE", path, headers: ["If-Match": etag])
        #expect(deleted.status == 204)
        #expect(try await account.item(uid) == nil)
        #expect(try await account.davx5ListedETags(list.path).keys.sorted() == [list.path + "\(kept).ics"])
    }

    // MARK: tasks.org

    @Test(arguments: DAVStore.allCases)
    func tasksOrgMakesAListWithExtendedMkcol(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        // CaldavClient.makeCollection: the home's URL resolved against UUIDHelper.newUUID() + "/".
        let id = TasksOrgRequests.newUUID()
        let path = account.home + id + "/"
        let made = try await account.dav("MKCOL", path, headers: ["Content-Type": TasksOrgRequests.xmlContentType],
                                         body: TasksOrgRequests.mkcol(displayName: "Groceries", color: "#1E88E5"))
        #expect(made.status == 201)
        let row = try await account.table("GET", "/tables/TodoList/\(id)").json as? [String: Any]
        #expect(row?["name"] as? String == "Groceries")
        // Its next sync finds the list in CaldavClient.calendars(): a calendar supporting tasks.
        let calendars = try await account.tasksOrgCalendars()
        let list = try #require(calendars.response(path))
        #expect(list.properties["displayname"] == "Groceries")
        #expect(list.properties["calendar-color"] == "#1E88E5")
        #expect(list.properties["resourcetype"]?.split(separator: " ").contains("calendar") == true)
        #expect(list.properties["supported-calendar-component-set"] == "comp")
        #expect(list.properties["sync-token"] != nil)
        #expect(list.properties["current-user-privilege-set"]?.contains("write-content") == true)
    }

    @Test(arguments: DAVStore.allCases)
    func tasksOrgSetsItsListIconByProppatchAfterTheMkcol(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let id = TasksOrgRequests.newUUID()
        let path = account.home + id + "/"
        #expect(try await account.dav("MKCOL", path, headers: ["Content-Type": TasksOrgRequests.xmlContentType],
                                      body: TasksOrgRequests.mkcol(displayName: "Garden", color: "#43A047")).status == 201)
        // makeCollection: `davResource.proppatch(CalendarIcon.NAME, icon)` when the icon is set.
        let patched = try await account.dav("PROPPATCH", path, headers: ["Content-Type": TasksOrgRequests.xmlContentType],
                                            body: TasksOrgRequests.proppatchIcon("yard"))
        #expect(patched.status == 207)
        let response = try #require(patched.multiStatus.responses.first)
        #expect(response.missing == [])
        #expect(response.properties.keys.contains("x-calendar-icon"))
        let list = try #require(try await account.tasksOrgCalendars().response(path))
        #expect(list.properties["x-calendar-icon"] == "yard")
        #expect(list.properties["displayname"] == "Garden")
    }

    @Test(arguments: DAVStore.allCases)
    func tasksOrgListsByCalendarQueryThenFetchesInBatchesOfThirty(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Backlog")
        var hrefs: Set<String> = []
        for n in 0..<31 {
            let uid = TasksOrgRequests.newUUID()
            hrefs.insert(list.path + "\(uid).ics")
            try await account.store(list.path + "\(uid).ics", Tasks.vtodo(uid, "Item \(n)"))
        }
        // fetchChanges: the CTag (sync-token, else getctag) from the home's PROPFIND first.
        let ctag = try #require(try await account.tasksOrgCalendars().response(list.path)?.properties["sync-token"])
        let listing = try await account.dav("REPORT", list.path, headers: ["Depth": "1", "Content-Type": TasksOrgRequests.xmlContentType],
                                            body: TasksOrgRequests.calendarQuery)
        #expect(listing.status == 207)
        let members = listing.multiStatus.responses
        #expect(Set(members.map(\.href)) == hrefs && members.count == hrefs.count)
        #expect(members.allSatisfy { $0.properties["getetag"]?.isEmpty == false })
        // `changed.chunked(30)`, one calendar-multiget per chunk.
        var fetched: Set<String> = []
        for start in stride(from: 0, to: members.count, by: 30) {
            let batch = members[start..<min(start + 30, members.count)].map(\.href)
            let reply = try await account.dav("REPORT", list.path, headers: ["Content-Type": TasksOrgRequests.xmlContentType],
                                              body: TasksOrgRequests.multiget(batch))
            #expect(reply.status == 207)
            for response in reply.multiStatus.responses {
                #expect(response.properties["getetag"]?.isEmpty == false)
                #expect(response.properties["calendar-data"]?.contains("BEGIN:VTODO") == true)
                fetched.insert(response.href)
            }
        }
        #expect(fetched == hrefs)
        // Nothing changed: the same CTag, and its next sync stops there ("up to date").
        #expect(try await account.tasksOrgCalendars().response(list.path)?.properties["sync-token"] == ctag)
    }

    @Test(arguments: DAVStore.allCases)
    func tasksOrgPutsAndDeletesWithoutIfMatch(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Errands")
        let uid = TasksOrgRequests.newUUID()
        let path = list.path + "\(uid).ics"
        // pushTask: `remote.put(requestBody)`, no If-Match, no If-None-Match.
        let created = try await account.put(path, TasksOrgRequests.vtodo(uid, "Test task"), headers: TasksOrgRequests.putHeaders)
        #expect(created.status == 201)
        // It keeps the PUT's ETag and skips the download when the listing shows the same.
        let etag = try #require(created.etag)
        #expect(try await account.tasksOrgListedETags(list.path)[path] == etag)
        let item = try #require(try await account.item(uid))
        #expect(item["text"] as? String == "Test task")
        #expect(item["priority"] as? String == "low")
        let edited = try await account.put(path, TasksOrgRequests.vtodo(uid, "Test task, edited"), headers: TasksOrgRequests.putHeaders)
        #expect(edited.status == 204)
        #expect(edited.etag != nil && edited.etag != etag)
        #expect(try await account.item(uid)?["text"] as? String == "Test task, edited")
        // deleteRemoteResource: `remote.delete(null) {}`, no If-Match.
        #expect(try await account.dav("DELETE", path).status == 204)
        #expect(try await account.item(uid) == nil)
        #expect(try await account.tasksOrgListedETags(list.path).isEmpty)
    }

    @Test(arguments: DAVStore.allCases)
    func tasksOrgsDeleteOfATaskAlreadyGoneIsA404ItCountsAsDone(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Errands")
        let uid = TasksOrgRequests.newUUID()
        let path = list.path + "\(uid).ics"
        #expect(try await account.put(path, TasksOrgRequests.vtodo(uid, "Gone elsewhere"), headers: TasksOrgRequests.putHeaders).status == 201)
        #expect(try await account.table("DELETE", "/tables/TodoItem/\(uid)").status == 200)
        // deleteRemoteResource catches HttpException with statusCode 404 and forgets the task.
        #expect(try await account.dav("DELETE", path).status == 404)
    }

    @Test(arguments: DAVStore.allCases, MoveOrder.allCases)
    func tasksOrgMovesATaskByAPutInTheNewListAndADeleteInTheOld(_ store: DAVStore, _ order: MoveOrder) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let home = try await account.makeList("Home"), work = try await account.makeList("Work")
        let old = TasksOrgRequests.newUUID()
        #expect(try await account.put(home.path + "\(old).ics", TasksOrgRequests.vtodo(old, "Return the books"), headers: TasksOrgRequests.putHeaders).status == 201)
        // TaskMover.moveCaldavTask: markMoved (the old CaldavTask is deleted, pushed as a DELETE in
        // the old list) and createCaldavSubtree (a new CaldavTask, whose remoteId, the UID, is new).
        let new = TasksOrgRequests.newUUID()
        let put = { try await account.put(work.path + "\(new).ics", TasksOrgRequests.vtodo(new, "Return the books"), headers: TasksOrgRequests.putHeaders).status }
        let delete = { try await account.dav("DELETE", home.path + "\(old).ics").status }
        var statuses: [String: Int] = [:]
        switch order {
        case .putInTheNewListFirst:
            statuses["PUT"] = try await put()
            statuses["DELETE"] = try await delete()
        case .deleteInTheOldListFirst:
            statuses["DELETE"] = try await delete()
            statuses["PUT"] = try await put()
        }
        #expect(statuses == ["PUT": 201, "DELETE": 204])
        #expect(try await account.item(old) == nil)
        let moved = try #require(try await account.item(new))
        #expect(moved["listId"] as? String == work.id)
        #expect(moved["text"] as? String == "Return the books")
        #expect(try await account.tasksOrgListedETags(home.path).isEmpty)
        #expect(try await account.tasksOrgListedETags(work.path).keys.sorted() == [work.path + "\(new).ics"])
    }
}

// MARK: The clients' requests

/// DAVx5's requests, as dav4jvm 4.0.1's ktor `DavResource` and `DavCalendar` write them (their
/// serializer declares `DAV:` as the default namespace and `CAL` for CalDAV; a namespace without
/// a prefix gets `n0`, `n1`… on its element).
private enum DAVx5Requests {
    /// dav4jvm ktor/DavResource.kt: `acceptXml()` (application/xml, then text/xml) and
    /// `contentType(MIME_XML_UTF8)` on PROPFIND and REPORT.
    static let xmlHeaders = ["Accept": "application/xml, text/xml", "Content-Type": "application/xml; charset=UTF-8"]

    /// davx5-ose BaseWebDavCollection.queryCapabilities(): `propfind(depth = 0, SupportedReportSet,
    /// SyncToken, CalDAV.GetCTag, CalDAV.MaxResourceSize, CardDAV.MaxResourceSize, CardDAV.SupportedAddressData)`.
    static let capabilities = #"<?xml version="1.0" encoding="UTF-8"?><propfind xmlns="DAV:" xmlns:CAL="urn:ietf:params:xml:ns:caldav" xmlns:CARD="urn:ietf:params:xml:ns:carddav"><prop><supported-report-set /><sync-token /><n0:getctag xmlns:n0="http://calendarserver.org/ns/" /><CAL:max-resource-size /><CARD:max-resource-size /><CARD:supported-address-data /></prop></propfind>"#

    /// davx5-ose BaseWebDavCollection.querySyncState(), after local changes were uploaded:
    /// `propfind(depth = 0, CalDAV.GetCTag, WebDAV.SyncToken)`.
    static let syncState = #"<?xml version="1.0" encoding="UTF-8"?><propfind xmlns="DAV:" xmlns:CAL="urn:ietf:params:xml:ns:caldav" xmlns:CARD="urn:ietf:params:xml:ns:carddav"><prop><n0:getctag xmlns:n0="http://calendarserver.org/ns/" /><sync-token /></prop></propfind>"#

    /// davx5-ose CalDavCollection.listFilteredMembers() with TaskSyncer's
    /// `CalendarQueryFilter(components = listOf("VTODO"))` (no time range), sent with `Depth: 1`;
    /// text as dav4jvm's DavCalendarTest ("calendarQuery formats start and end times as UTC") expects it.
    static let calendarQuery = #"<?xml version="1.0" encoding="UTF-8"?><CAL:calendar-query xmlns="DAV:" xmlns:CAL="urn:ietf:params:xml:ns:caldav"><prop><getetag /></prop><CAL:filter><CAL:comp-filter name="VCALENDAR"><CAL:comp-filter name="VTODO" /></CAL:comp-filter></CAL:filter></CAL:calendar-query>"#

    /// davx5-ose SyncManager.MULTIGET_BATCH_SIZE.
    static let multigetBatchSize = 10

    /// dav4jvm ktor/DavCalendar.multiget(urls): getcontenttype, getetag, schedule-tag and
    /// calendar-data (no content-type or version), each href as `url.encodedPath`; no Depth header.
    static func multiget(_ hrefs: [String]) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><CAL:calendar-multiget xmlns="DAV:" xmlns:CAL="urn:ietf:params:xml:ns:caldav"><prop><getcontenttype /><getetag /><CAL:schedule-tag /><CAL:calendar-data /></prop>"#
            + hrefs.map { "<href>\($0)</href>" }.joined() + "</CAL:calendar-multiget>"
    }

    /// davx5-ose TasksSyncManager.generateUpload(): `TextContent(contentType = DavCalendar.MIME_ICALENDAR_UTF8)`.
    static let contentType = "text/calendar; charset=utf-8"

    /// A task as TasksSyncManager uploads it: PRODID `DAVx5/<version> ical4j/<version>`
    /// (ProductIds.iCalProdId), SEQUENCE raised on every upload of an edit (SequenceUpdater).
    static func vtodo(_ uid: String, _ summary: String, sequence: Int? = nil) -> String {
        var lines: [String] = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:DAVx5/4.5.5-ose ical4j/3.2.19", "BEGIN:VTODO", "DTSTAMP:20261127T093000Z", "UID:\(uid)"]
        if let sequence { lines.append("SEQUENCE:\(sequence)") }
        lines += ["CREATED:20261127T092800Z", "LAST-MODIFIED:20261127T093000Z", "SUMMARY:\(summary)", "STATUS:NEEDS-ACTION", "END:VTODO", "END:VCALENDAR", ""]
        return lines.joined(separator: "\r\n")
    }
}

/// tasks.org's requests, as its CaldavClient and CaldavSynchronizer build them over dav4jvm's
/// okhttp classes (commit af443c2f); XML from Android's XmlPullParserFactory serializer (kxml).
private enum TasksOrgRequests {
    /// dav4jvm okhttp/DavResource.kt `MIME_XML`, the type of every XML body it sends.
    static let xmlContentType = "application/xml; charset=utf-8"

    /// CaldavSynchronizer.pushTask: `data.toRequestBody(contentType = MIME_ICALENDAR)`, where
    /// dav4jvm okhttp/DavCalendar.kt has `MIME_ICALENDAR = "text/calendar".toMediaType()`.
    static let putHeaders = ["Content-Type": "text/calendar"]

    /// data/src/commonMain/kotlin/org/tasks/data/UUIDHelper.kt newUUID(): a positive 64-bit
    /// number in decimal, used for a new list's URL segment and a new task's UID (CaldavTask.remoteId).
    static func newUUID() -> String { String(Int64.random(in: 1_000_000_000_000_000...Int64.max)) }

    /// CaldavClient.getMkcolString(displayName, color): resourcetype collection and calendar,
    /// displayname, Apple's calendar-color as `String.format("#%06X", color and 0xFFFFFF)` (when
    /// not 0), and supported-calendar-component-set VTODO. The icon is not in it.
    static func mkcol(displayName: String, color: String) -> String {
        #"<?xml version='1.0' encoding='UTF-8' ?><mkcol xmlns="DAV:" xmlns:CAL="urn:ietf:params:xml:ns:caldav"><set><prop><resourcetype><collection /><CAL:calendar /></resourcetype><displayname>\#(displayName)</displayname><n0:calendar-color xmlns:n0="http://apple.com/ns/ical/">\#(color)</n0:calendar-color><CAL:supported-calendar-component-set><CAL:comp name="VTODO" /></CAL:supported-calendar-component-set></prop></set></mkcol>"#
    }

    /// CaldavClient.makeCollection then `proppatch(CalendarIcon.NAME, icon)`: property/CalendarIcon.kt
    /// names it `x-calendar-icon` in PropertyUtils.NS_TASKS, `http://org.tasks/ns/`; the body is
    /// dav4jvm okhttp/DavResource.createProppatchXml (prefix `d` for DAV:).
    static func proppatchIcon(_ icon: String) -> String {
        #"<?xml version='1.0' encoding='UTF-8' ?><d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><n0:x-calendar-icon xmlns:n0="http://org.tasks/ns/">\#(icon)</n0:x-calendar-icon></d:prop></d:set></d:propertyupdate>"#
    }

    /// CaldavClient.calendars(): `propfind(1, *calendarProperties)` on the home set.
    static let calendarsPropfind = #"<?xml version='1.0' encoding='UTF-8' ?><propfind xmlns="DAV:" xmlns:CAL="urn:ietf:params:xml:ns:caldav" xmlns:CARD="urn:ietf:params:xml:ns:carddav"><prop><resourcetype /><displayname /><CAL:supported-calendar-component-set /><n0:getctag xmlns:n0="http://calendarserver.org/ns/" /><n1:calendar-color xmlns:n1="http://apple.com/ns/ical/" /><sync-token /><share-access /><invite /><n2:owner-principal xmlns:n2="http://owncloud.org/ns" /><n3:invite xmlns:n3="http://owncloud.org/ns" /><current-user-privilege-set /><current-user-principal /><n4:x-calendar-icon xmlns:n4="http://org.tasks/ns/" /></prop></propfind>"#

    /// CaldavSynchronizer.fetchChanges: `davCalendar.calendarQuery("VTODO", null, null)`, dav4jvm
    /// okhttp/DavCalendar.calendarQuery (getetag only, `Depth: 1`).
    static let calendarQuery = #"<?xml version='1.0' encoding='UTF-8' ?><CAL:calendar-query xmlns="DAV:" xmlns:CAL="urn:ietf:params:xml:ns:caldav"><prop><getetag /></prop><CAL:filter><CAL:comp-filter name="VCALENDAR"><CAL:comp-filter name="VTODO" /></CAL:comp-filter></CAL:filter></CAL:calendar-query>"#

    /// CaldavSynchronizer.fetchChanges: `davCalendar.multiget(urls)` per chunk of 30, dav4jvm
    /// okhttp/DavCalendar.multiget (no Depth header).
    static func multiget(_ hrefs: [String]) -> String {
        #"<?xml version='1.0' encoding='UTF-8' ?><CAL:calendar-multiget xmlns="DAV:" xmlns:CAL="urn:ietf:params:xml:ns:caldav"><prop><getcontenttype /><getetag /><CAL:schedule-tag /><CAL:calendar-data /></prop>"#
            + hrefs.map { "<href>\($0)</href>" }.joined() + "</CAL:calendar-multiget>"
    }

    /// A task as tasks.org writes it (the shape of app/src/androidTest/java/org/tasks/caldav/
    /// CaldavSynchronizerTest.kt's server replies): PRODID `+//IDN tasks.org//android-<code>//EN`.
    static func vtodo(_ uid: String, _ summary: String) -> String {
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:+//IDN tasks.org//android-140100//EN", "BEGIN:VTODO", "DTSTAMP:20261127T154147Z",
         "UID:\(uid)", "CREATED:20261127T154134Z", "LAST-MODIFIED:20261127T154140Z", "SUMMARY:\(summary)", "PRIORITY:9",
         "END:VTODO", "END:VCALENDAR", ""].joined(separator: "\r\n")
    }
}

private extension DAVAccount {
    /// A DAVx5 PROPFIND or REPORT: dav4jvm's XML headers, and `Depth` when it sends one.
    func davx5(_ method: String, _ path: String, depth: String?, _ body: String) async throws -> DAVReply {
        var headers = DAVx5Requests.xmlHeaders
        if let depth { headers["Depth"] = depth }
        return try await dav(method, path, headers: headers, body: body)
    }

    /// A DAVx5 upload (BaseWebDavCollection.putMember) with its conditional `headers`.
    func davx5Put(_ path: String, _ ics: String, _ headers: [String: String]) async throws -> DAVReply {
        try await put(path, ics, headers: headers.merging(["Content-Type": DAVx5Requests.contentType]) { a, _ in a })
    }

    /// The members DAVx5's calendar-query lists in `collection`, href to ETag.
    func davx5ListedETags(_ collection: String) async throws -> [String: String] {
        let listing = try await davx5("REPORT", collection, depth: "1", DAVx5Requests.calendarQuery).multiStatus
        return Dictionary(listing.responses.map { ($0.href, $0.properties["getetag"] ?? "") }, uniquingKeysWith: { a, _ in a })
    }

    /// tasks.org's PROPFIND of the home's calendars.
    func tasksOrgCalendars() async throws -> MultiStatusReply {
        try await dav("PROPFIND", home, headers: ["Depth": "1", "Content-Type": TasksOrgRequests.xmlContentType],
                      body: TasksOrgRequests.calendarsPropfind).multiStatus
    }

    /// The members tasks.org's calendar-query lists in `collection`, href to ETag.
    func tasksOrgListedETags(_ collection: String) async throws -> [String: String] {
        let listing = try await dav("REPORT", collection, headers: ["Depth": "1", "Content-Type": TasksOrgRequests.xmlContentType],
                                    body: TasksOrgRequests.calendarQuery).multiStatus
        return Dictionary(listing.responses.map { ($0.href, $0.properties["getetag"] ?? "") }, uniquingKeysWith: { a, _ in a })
    }
}
