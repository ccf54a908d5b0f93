import Foundation
import Testing

/// A list's calendar keeps its URL, `/dav/calendars/NAME/LIST-ID/`, in every member's home,
/// whichever namespace holds the list: a phone removes a calendar that disappears, with the
/// edits it had not sent.
@Suite struct CalendarURLTests {
    private func names(in home: DAVAccount) async throws -> [String: String] {
        let listing = try await home.xml("PROPFIND", home.home, Tasks.propfind(["d:displayname"])).multiStatus
        return Dictionary(listing.responses.compactMap { response in response.properties["displayname"].map { (response.href, $0) } },
                          uniquingKeysWith: { first, _ in first })
    }

    @Test(arguments: DAVStore.allCases)
    func aSharedListKeepsItsCalendarURLInTheOwnersHome(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let ann = try await server.addAccount(), bob = try await server.addAccount()
        let list = try await ann.makeList("Groceries")
        try await ann.moveList(list.id, from: nil, to: try await ann.newSpace(with: bob))
        #expect(try await names(in: ann).filter { $0.value == "Groceries" }.map(\.key) == [list.path])
    }

    @Test(arguments: DAVStore.allCases)
    func aMemberFindsASharedListAtItsIdInTheirOwnHome(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let ann = try await server.addAccount(), bob = try await server.addAccount()
        let list = try await ann.makeList("Groceries")
        try await ann.moveList(list.id, from: nil, to: try await ann.newSpace(with: bob))
        #expect(try await names(in: bob)[bob.home + "\(list.id)/"] == "Groceries")
    }

    @Test(arguments: DAVStore.allCases)
    func anUnsharedListKeepsItsCalendarURL(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let ann = try await server.addAccount(), bob = try await server.addAccount()
        let list = try await ann.makeList("Groceries")
        let space = try await ann.newSpace(with: bob)
        try await ann.moveList(list.id, from: nil, to: space)
        try await ann.moveList(list.id, from: space, to: nil)
        #expect(try await names(in: ann).filter { $0.value == "Groceries" }.map(\.key) == [list.path])
    }

    @Test(arguments: DAVStore.allCases)
    func aPhonesEditQueuedAcrossAShareLandsAtTheURLItAlwaysHad(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let ann = try await server.addAccount(), bob = try await server.addAccount()
        let list = try await ann.makeList("Groceries")
        let uid = Tasks.uid()
        let etag = try #require(try await ann.store(list.path + "\(uid).ics", Tasks.vtodo(uid, "Bread")).etag)
        let space = try await ann.newSpace(with: bob)
        try await ann.moveList(list.id, from: nil, to: space)
        let queued = try await ann.put(list.path + "\(uid).ics", Tasks.vtodo(uid, "Rye bread"), headers: ["If-Match": etag])
        #expect([201, 204].contains(queued.status), "\(queued.status): \(queued.text)")
        #expect(try await ann.item(uid, space: space)?["text"] as? String == "Rye bread")
    }

    @Test(arguments: DAVStore.allCases)
    func aSyncTokenFromBeforeAShareIsAnsweredValidSyncTokenAndAFreshSyncHasEveryTask(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let ann = try await server.addAccount(), bob = try await server.addAccount()
        let list = try await ann.makeList("Groceries")
        let uid = Tasks.uid()
        try await ann.store(list.path + "\(uid).ics", Tasks.vtodo(uid, "Bread"))
        let before = try #require(try await ann.xml("REPORT", list.path, Tasks.syncCollection("")).multiStatus.syncToken)
        try await ann.moveList(list.id, from: nil, to: try await ann.newSpace(with: bob))
        let stale = try await ann.xml("REPORT", list.path, Tasks.syncCollection(before))
        #expect(stale.status == 403 && stale.text.contains("valid-sync-token"))
        let fresh = try await ann.xml("REPORT", list.path, Tasks.syncCollection("")).multiStatus
        #expect(fresh.response("\(uid).ics") != nil)
    }

    @Test(arguments: DAVStore.allCases)
    func aSecondListOfOneIdInAHomeGetsItsOwnURLAndKeepsItWhenTheFirstGoes(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let ann = try await server.addAccount(), bob = try await server.addAccount()
        let id = Tasks.uid()
        #expect(try await bob.table("POST", "/tables/TodoList", ["id": id, "name": "Bob's", "position": 1]).status == 201)
        let space = try await ann.newSpace(with: bob)
        #expect(try await ann.table("POST", "/tables/TodoList?space=\(space)", ["id": id, "name": "Ann's", "position": 1]).status == 201)
        let both = try await names(in: bob)
        #expect(both[bob.home + "\(id)/"] == "Bob's")
        #expect(both[bob.home + "\(id)~2/"] == "Ann's")
        #expect(try await bob.table("DELETE", "/tables/TodoList/\(id)").status == 200)
        let after = try await names(in: bob)
        #expect(after[bob.home + "\(id)~2/"] == "Ann's")
        #expect(after[bob.home + "\(id)/"] == nil)
        #expect(try await bob.dav("PROPFIND", bob.home + "\(id)/", headers: ["Depth": "0"]).status == 404)
    }

    @Test(arguments: DAVStore.allCases)
    func aSharedListsFormerURLStillTakesAQueuedTask(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let ann = try await server.addAccount(), bob = try await server.addAccount()
        let space = try await ann.newSpace(with: bob)
        let list = try await ann.makeList("Household", space: space)
        let uid = Tasks.uid()
        try await bob.store(bob.home + "\(space)~\(list.id)/\(uid).ics", Tasks.vtodo(uid, "Bread"))
        #expect(try await ann.item(uid, space: space)?["text"] as? String == "Bread")
        #expect(try await names(in: bob)[bob.home + "\(space)~\(list.id)/"] == nil)
    }
}
