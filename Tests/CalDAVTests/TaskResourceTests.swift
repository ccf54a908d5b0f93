import Foundation
import Testing

/// Tasks as VTODO resources: a PUT is an ordinary item of the account's, and an item is a
/// resource, every field both ways.
@Suite struct TaskResourceTests {
    @Test(arguments: DAVStore.allCases)
    func aPutTaskIsAnItemOfItsList(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Groceries")
        let uid = Tasks.uid()
        let put = try await account.put(list.path + "\(uid).ics", Tasks.vtodo(uid, "Milk", ["DUE;VALUE=DATE:20261201", "PRIORITY:1", "CATEGORIES:dairy,shop", "DESCRIPTION:two litres"]),
                                        headers: ["If-None-Match": "*"])
        #expect(put.status == 201)
        let item = try #require(try await account.item(uid))
        #expect(item["text"] as? String == "Milk")
        #expect(item["due"] as? String == "2026-12-01")
        #expect(item["priority"] as? String == "high")
        #expect(item["tags"] as? String == "dairy shop")
        #expect(item["notes"] as? String == "two litres")
        #expect(item["listId"] as? String == list.id)
        // The ETag is the version, then the version's fingerprint.
        #expect(put.etag?.hasPrefix("\"\(item["version"] as? String ?? "-").") == true)
    }

    @Test(arguments: DAVStore.allCases)
    func anItemFromTheTableAPIIsAVTODOWithItsETag(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let id = Tasks.uid()
        let made = try await account.table("POST", "/tables/TodoItem", ["id": id, "text": "Call Bob", "complete": false, "due": "2026-12-02T18:30", "priority": "low", "repeat": "weekly"])
        #expect(made.status == 201)
        let reply = try await account.dav("GET", account.inbox + "\(id).ics")
        #expect(reply.status == 200)
        #expect(reply.text.contains("SUMMARY:Call Bob\r\n"))
        #expect(reply.text.contains("DUE:20261202T183000\r\n"))
        #expect(reply.text.contains("PRIORITY:9\r\n"))
        #expect(reply.text.contains("RRULE:FREQ=WEEKLY\r\n"))
        #expect(reply.etag?.hasPrefix("\"\((made.json as? [String: Any])?["version"] as? String ?? "-").") == true)
    }

    @Test(arguments: DAVStore.allCases)
    func whatNoFieldModelsSurvivesARoundTrip(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let uid = Tasks.uid()
        let lines = ["RELATED-TO;RELTYPE=PARENT:parent-1", "X-APPLE-SORT-ORDER:42", "URL:https://example.com/a", "X-CUSTOM;X-P=1:value",
                     "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER;RELATED=END:-PT15M", "DESCRIPTION:Soon", "END:VALARM"]
        #expect(try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Report", lines)).status == 201)
        // An edit through the table API keeps them too.
        let item = try #require(try await account.item(uid))
        _ = try await account.table("PATCH", "/tables/TodoItem/\(uid)", ["text": "Report v2", "version": item["version"] as? String ?? ""])
        let text = try await account.dav("GET", account.inbox + "\(uid).ics").text
        #expect(text.contains("SUMMARY:Report v2\r\n"))
        for line in lines { #expect(text.contains(line + "\r\n"), "\(line)") }
    }

    @Test(arguments: DAVStore.allCases)
    func aDeletedTaskIsGoneForTheTableAPI(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let uid = Tasks.uid()
        let put = try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Gone soon"))
        #expect(try await account.dav("DELETE", account.inbox + "\(uid).ics", headers: ["If-Match": put.etag ?? ""]).status == 204)
        #expect(try await account.item(uid) == nil)
        #expect(try await account.dav("GET", account.inbox + "\(uid).ics").status == 404)
    }

    @Test(arguments: DAVStore.allCases)
    func aResourceNameTheClientChoseIsKept(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let uid = Tasks.uid()
        #expect(try await account.put(account.inbox + "chosen-name.ics", Tasks.vtodo(uid, "Named")).status == 201)
        let listing = try await account.xml("PROPFIND", account.inbox, Tasks.propfind(["d:getetag"])).multiStatus
        #expect(listing.response("/inbox/chosen-name.ics") != nil)
        #expect(try await account.dav("GET", account.inbox + "chosen-name.ics").text.contains("UID:\(uid)"))
    }

    @Test(arguments: DAVStore.allCases)
    func aTaskPutIntoAnotherListMovesThere(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let home = try await account.makeList("Home"), work = try await account.makeList("Work")
        let uid = Tasks.uid()
        try await account.store(home.path + "\(uid).ics", Tasks.vtodo(uid, "Move me"))
        #expect(try await account.put(work.path + "\(uid).ics", Tasks.vtodo(uid, "Move me")).status == 204)
        #expect(try await account.item(uid)?["listId"] as? String == work.id)
        #expect(try await account.dav("GET", home.path + "\(uid).ics").status == 404)
    }
}
