import Foundation
import Testing

/// Lists as calendars: made with MKCALENDAR or extended MKCOL, changed with PROPPATCH, deleted as
/// `todo lists rm` deletes them.
@Suite struct CollectionTests {
    @Test(arguments: DAVStore.allCases)
    func mkcalendarMakesAListTodoSees(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let body = #"<?xml version="1.0"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:a="http://apple.com/ns/ical/"><d:set><d:prop><d:displayname>Holidays</d:displayname><a:calendar-color>#FF0000FF</a:calendar-color><c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>"#
        #expect(try await account.dav("MKCALENDAR", account.home + "holidays/", body: body).status == 201)
        let list = try await account.table("GET", "/tables/TodoList/holidays").json as? [String: Any]
        #expect(list?["name"] as? String == "Holidays")
        let props = try await account.xml("PROPFIND", account.home + "holidays/", depth: "0", Tasks.propfind(["d:displayname", "a:calendar-color"])).multiStatus
        #expect(props.responses.first?.properties["calendar-color"] == "#FF0000FF")
    }

    @Test(arguments: DAVStore.allCases)
    func extendedMkcolMakesACalendarToo(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let body = #"<?xml version="1.0"?><d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><d:displayname>Errands</d:displayname></d:prop></d:set></d:mkcol>"#
        #expect(try await account.dav("MKCOL", account.home + "errands/", body: body).status == 201)
        #expect((try await account.table("GET", "/tables/TodoList/errands").json as? [String: Any])?["name"] as? String == "Errands")
    }

    @Test(arguments: DAVStore.allCases)
    func aCalendarForEventsOnlyIsRefused(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let body = #"<?xml version="1.0"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><c:supported-calendar-component-set><c:comp name="VEVENT"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>"#
        let reply = try await account.dav("MKCALENDAR", account.home + "events/", body: body)
        #expect(reply.status == 403)
        #expect(try await account.table("GET", "/tables/TodoList/events").status == 404)
    }

    @Test(arguments: DAVStore.allCases)
    func proppatchRenamesAndReordersAList(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Old name")
        let body = #"<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:" xmlns:a="http://apple.com/ns/ical/"><d:set><d:prop><d:displayname>New name</d:displayname><a:calendar-order>5</a:calendar-order></d:prop></d:set></d:propertyupdate>"#
        let reply = try await account.dav("PROPPATCH", list.path, body: body)
        #expect(reply.status == 207)
        let row = try await account.table("GET", "/tables/TodoList/\(list.id)").json as? [String: Any]
        #expect(row?["name"] as? String == "New name")
        #expect(row?["position"] as? Double == 5)
    }

    @Test(arguments: DAVStore.allCases)
    func aRenameWithAnAppsOwnPropertySucceedsWholeAndKeepsIt(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Errands")
        // tasks.org renames, recolours and sets its icon in one PROPPATCH.
        let body = #"<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:" xmlns:a="http://apple.com/ns/ical/" xmlns:t="http://tasks.org/ns/"><d:set><d:prop><d:displayname>Shopping</d:displayname><a:calendar-color>#00FF00</a:calendar-color><t:x-tasks-icon>cart</t:x-tasks-icon></d:prop></d:set></d:propertyupdate>"#
        let reply = try await account.dav("PROPPATCH", list.path, body: body).multiStatus
        #expect(reply.responses.first?.missing == [])
        let found = try await account.xml("PROPFIND", list.path, depth: "0", #"<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:t="http://tasks.org/ns/"><d:prop><d:displayname/><t:x-tasks-icon/></d:prop></d:propfind>"#).multiStatus
        #expect(found.responses.first?.properties["displayname"] == "Shopping")
        #expect(found.responses.first?.properties["x-tasks-icon"] == "cart")
    }

    @Test(arguments: DAVStore.allCases)
    func aPropertyOfTheServersCannotBeSetAndNothingChanges(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Kept")
        let body = #"<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>Changed</d:displayname><d:getetag>"x"</d:getetag></d:prop></d:set></d:propertyupdate>"#
        let reply = try await account.dav("PROPPATCH", list.path, body: body).multiStatus
        #expect(Set(reply.responses.first?.missing ?? []) == ["displayname", "getetag"])
        #expect((try await account.table("GET", "/tables/TodoList/\(list.id)").json as? [String: Any])?["name"] as? String == "Kept")
    }

    @Test(arguments: DAVStore.allCases)
    func deletingAListMovesItsTasksToTheInbox(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Temporary")
        let uid = Tasks.uid()
        try await account.store(list.path + "\(uid).ics", Tasks.vtodo(uid, "Keep me"))
        #expect(try await account.dav("DELETE", list.path).status == 204)
        #expect(try await account.table("GET", "/tables/TodoList/\(list.id)").status == 404)
        #expect(try await account.dav("GET", account.inbox + "\(uid).ics").status == 200)
    }
}
