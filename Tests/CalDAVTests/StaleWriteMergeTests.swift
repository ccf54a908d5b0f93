@testable import CalDAV
import Foundation
import Testing

/// A PUT whose If-Match names an older version merges field by field against that version, as a
/// device's sync does: only a field both sides changed to different values answers 412.
@Suite struct StaleWriteMergeTests {
    /// A task stored through CalDAV, then changed by `todo` (the table API): the CalDAV client
    /// still holds the first ETag.
    private func staleTask(_ store: DAVStore, lines: [String] = [], todoChanges: [String: Any]) async throws -> (DAVAccount, String, String) {
        let account = try await DAVServers.shared.server(store).addAccount()
        let uid = Tasks.uid()
        let first = try await account.store(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Milk", lines))
        let patched = try await account.table("PATCH", "/tables/TodoItem/\(uid)", todoChanges)
        #expect(patched.status == 200)
        return (account, uid, try #require(first.etag))
    }

    @Test(arguments: DAVStore.allCases)
    func aStaleWriteOfAnotherFieldKeepsBothChangesAndAnswersWithoutAnETag(_ store: DAVStore) async throws {
        let (account, uid, stale) = try await staleTask(store, todoChanges: ["notes": "semi-skimmed"])
        let reply = try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Oat milk"), headers: ["If-Match": stale])
        #expect(reply.status == 204)
        #expect(reply.etag == nil)
        let item = try #require(try await account.item(uid))
        #expect(item["text"] as? String == "Oat milk")
        #expect(item["notes"] as? String == "semi-skimmed")
        let read = try await account.dav("GET", account.inbox + "\(uid).ics")
        #expect(read.text.contains("SUMMARY:Oat milk") && read.text.contains("DESCRIPTION:semi-skimmed"))
    }

    @Test(arguments: DAVStore.allCases)
    func aFieldBothSidesChangedDifferentlyIsRefusedWith412AndNothingIsWritten(_ store: DAVStore) async throws {
        let (account, uid, stale) = try await staleTask(store, todoChanges: ["text": "Soy milk"])
        let reply = try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Oat milk", ["DESCRIPTION:two litres"]), headers: ["If-Match": stale])
        #expect(reply.status == 412)
        #expect(reply.text.contains("SUMMARY"))
        let item = try #require(try await account.item(uid))
        #expect(item["text"] as? String == "Soy milk")
        #expect(item["notes"] as? String == nil)
    }

    @Test(arguments: DAVStore.allCases)
    func bothSidesChangingAFieldToTheSameValueIsNoClash(_ store: DAVStore) async throws {
        let (account, uid, stale) = try await staleTask(store, todoChanges: ["text": "Oat milk"])
        let reply = try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Oat milk"), headers: ["If-Match": stale])
        #expect(reply.status == 204)
        #expect(try await account.item(uid)?["text"] as? String == "Oat milk")
    }

    @Test(arguments: DAVStore.allCases)
    func tagsMergeAsASetEveryAdditionAndRemovalOnEitherSideSurvives(_ store: DAVStore) async throws {
        let (account, uid, stale) = try await staleTask(store, lines: ["CATEGORIES:dairy,shop"], todoChanges: ["tags": "dairy shop weekly"])
        // The CalDAV client removed "shop" and added "fridge"; todo added "weekly".
        let reply = try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Milk", ["CATEGORIES:dairy,fridge"]), headers: ["If-Match": stale])
        #expect(reply.status == 204)
        #expect(try await account.item(uid)?["tags"] as? String == "dairy fridge weekly")
    }

    @Test(arguments: DAVStore.allCases)
    func anETagFromBeforeFingerprintsStillRefusesAStaleWrite(_ store: DAVStore) async throws {
        let (account, uid, stale) = try await staleTask(store, todoChanges: ["notes": "semi-skimmed"])
        let bareVersion = "\"" + String(stale.dropFirst().dropLast().split(separator: ".").first ?? "") + "\""
        let reply = try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Oat milk"), headers: ["If-Match": bareVersion])
        #expect(reply.status == 412)
        #expect(try await account.item(uid)?["text"] as? String == "Milk")
    }

    @Test(arguments: DAVStore.allCases)
    func aStaleDeleteIsStillRefused(_ store: DAVStore) async throws {
        let (account, uid, stale) = try await staleTask(store, todoChanges: ["notes": "semi-skimmed"])
        let reply = try await account.dav("DELETE", account.inbox + "\(uid).ics", headers: ["If-Match": stale])
        #expect(reply.status == 412)
        #expect(try await account.item(uid) != nil)
    }

    @Test(arguments: DAVStore.allCases)
    func theETagOfAWriteIsTheOneEveryListingShows(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let uid = Tasks.uid()
        let put = try await account.store(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Milk", ["CATEGORIES:dairy", "PRIORITY:1"]))
        let etag = try #require(put.etag)
        #expect(try await account.dav("GET", account.inbox + "\(uid).ics").etag == etag)
        let listing = try await account.xml("REPORT", account.inbox, Tasks.calendarQuery())
        #expect(listing.multiStatus.response("\(uid).ics")?.properties["getetag"] == etag)
        let report = try await account.xml("REPORT", account.inbox, Tasks.syncCollection(""))
        #expect(report.multiStatus.response("\(uid).ics")?.properties["getetag"] == etag)
    }

    @Test(arguments: DAVStore.allCases)
    func aRefusedStaleWriteKeepsWhatItChangedAsALostEditOfTheItem(_ store: DAVStore) async throws {
        let (account, uid, stale) = try await staleTask(store, todoChanges: ["text": "Soy milk"])
        let reply = try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Oat milk", ["DESCRIPTION:two litres"]),
                                          headers: ["If-Match": stale, "User-Agent": "DAVx5/4.4.3-ose (dav4jvm; okhttp/4.12.0) Android/14"])
        #expect(reply.status == 412)
        let rows = try #require(try await account.table("GET", "/tables/TodoLostEdit").json as? [[String: Any]])
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        #expect(row["itemId"] as? String == uid)
        #expect(row["fields"] as? String == "text")
        #expect(row["sentBy"] as? String == "DAVx5")
        let lostText = try #require(row["lost"] as? String)
        let lost = try #require(JSONSerialization.jsonObject(with: Data(lostText.utf8)) as? [String: Any])
        #expect(lost["text"] as? String == "Oat milk")
        #expect(lost["notes"] as? String == "two litres")
        #expect(lost.count == 2)
    }

    @Test(arguments: DAVStore.allCases)
    func aMergedStaleWriteKeepsNoLostEdit(_ store: DAVStore) async throws {
        let (account, uid, stale) = try await staleTask(store, todoChanges: ["notes": "semi-skimmed"])
        #expect(try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Oat milk"), headers: ["If-Match": stale]).status == 204)
        #expect((try await account.table("GET", "/tables/TodoLostEdit").json as? [Any])?.isEmpty == true)
    }

    @Test(arguments: DAVStore.allCases)
    func aStaleEditOfATaskMovedToAnotherListMergesWhereTheTaskNowIs(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let work = try await account.makeList("Work")
        let uid = Tasks.uid()
        let stale = try #require(try await account.store(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Milk")).etag)
        #expect(try await account.table("PATCH", "/tables/TodoItem/\(uid)", ["listId": work.id]).status == 200)
        // DAVx5 still holds the task in the Inbox and edits it there.
        let reply = try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Oat milk"), headers: ["If-Match": stale])
        #expect(reply.status == 204)
        #expect(reply.etag == nil)
        let item = try #require(try await account.item(uid))
        #expect(item["text"] as? String == "Oat milk")
        #expect(item["listId"] as? String == work.id)
        #expect(try await account.dav("GET", account.inbox + "\(uid).ics").status == 404)
        #expect(try await account.dav("GET", work.path + "\(uid).ics").text.contains("SUMMARY:Oat milk"))
    }

    @Test(arguments: DAVStore.allCases)
    func anIfMatchStarOnATaskMovedAwayFindsNoResource(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let work = try await account.makeList("Work")
        let uid = Tasks.uid()
        _ = try await account.store(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Milk"))
        #expect(try await account.table("PATCH", "/tables/TodoItem/\(uid)", ["listId": work.id]).status == 200)
        let stale = try #require(try await account.dav("GET", work.path + "\(uid).ics").etag)
        for ifMatch in ["*", "*, \(stale)"] {
            #expect(try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Oat milk"), headers: ["If-Match": ifMatch]).status == 412)
        }
        #expect(try await account.item(uid)?["listId"] as? String == work.id)
    }

    @Test(arguments: DAVStore.allCases)
    func aRefusedStaleDeleteIsKeptAsALostDeletionNamingWhatChangedSince(_ store: DAVStore) async throws {
        let (account, uid, stale) = try await staleTask(store, todoChanges: ["notes": "semi-skimmed"])
        #expect(try await account.dav("DELETE", account.inbox + "\(uid).ics", headers: ["If-Match": stale, "User-Agent": "DAVx5/4.4.3-ose"]).status == 412)
        let row = try #require((try await account.table("GET", "/tables/TodoLostEdit").json as? [[String: Any]])?.first)
        #expect(row["itemId"] as? String == uid)
        #expect(row["lost"] as? String == #"{"deleted":true}"#)
        #expect(row["fields"] as? String == "notes")
    }

    @Test(arguments: DAVStore.allCases)
    func aStaleDeleteOfATaskWhoseFieldsAreUnchangedDeletesIt(_ store: DAVStore) async throws {
        // A new version, with a column the face does not read: nothing the ETag's version held changed.
        let (account, uid, stale) = try await staleTask(store, todoChanges: ["importedFrom": "a script"])
        #expect(try await account.dav("GET", account.inbox + "\(uid).ics").etag != stale)
        #expect(try await account.dav("DELETE", account.inbox + "\(uid).ics", headers: ["If-Match": stale]).status == 204)
        #expect(try await account.item(uid) == nil)
    }

    @Test(arguments: [("DAVx5/4.4.3-ose (dav4jvm; okhttp/4.12.0) Android/14", "DAVx5"), ("tasks.org/14.2", "tasks.org"),
                      ("\u{1B}[2JEvil\u{7}/1", "2JEvil"), ("", "A CalDAV app"), ("//", "A CalDAV app")])
    func aLostEditNamesTheAppByItsProductTokenInPlainCharacters(_ agent: String, _ name: String) {
        #expect(TaskWriter.appName(agent) == name)
    }
}
