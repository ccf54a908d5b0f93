import Foundation
import ServerTestSupport
import Testing

/// Each calendar's `getctag` and sync token are its own list's: a change in one list leaves every
/// other list's alone, and a task moved between lists counts in both. A client with ten lists
/// syncs the one that changed, not all ten.
@Suite struct ListChangeTrackingTests {
    /// Work and Home, two lists of a new account's.
    private func twoLists(_ store: DAVStore) async throws -> (account: DAVAccount, work: (id: String, path: String), home: (id: String, path: String)) {
        let account = try await DAVServers.shared.server(store).addAccount()
        return (account, try await account.makeList("Work"), try await account.makeList("Home"))
    }

    @Test(arguments: DAVStore.allCases)
    func aTaskAddedOverCalDAVChangesItsListsTokenAndNoOther(_ store: DAVStore) async throws {
        let (account, work, home) = try await twoLists(store)
        let (workBefore, homeBefore) = (try await account.ctag(work.path), try await account.ctag(home.path))
        let uid = Tasks.uid()
        try await account.store(work.path + "\(uid).ics", Tasks.vtodo(uid, "Write the report"))
        #expect(try await account.ctag(work.path) != workBefore)
        #expect(try await account.ctag(home.path) == homeBefore)
    }

    @Test(arguments: DAVStore.allCases)
    func aTableAPIEditChangesItsListsTokenAndNoOther(_ store: DAVStore) async throws {
        let (account, work, home) = try await twoLists(store)
        let id = Tasks.uid()
        #expect(try await account.table("POST", "/tables/TodoItem", ["id": id, "text": "Call the bank", "listId": work.id]).status == 201)
        let (workBefore, homeBefore) = (try await account.ctag(work.path), try await account.ctag(home.path))
        #expect(try await account.table("PATCH", "/tables/TodoItem/\(id)", ["text": "Call the bank at 9"]).status == 200)
        #expect(try await account.ctag(work.path) != workBefore)
        #expect(try await account.ctag(home.path) == homeBefore)
    }

    @Test(arguments: DAVStore.allCases)
    func aDeletionChangesItsListsTokenAndNoOther(_ store: DAVStore) async throws {
        let (account, work, home) = try await twoLists(store)
        let id = Tasks.uid()
        #expect(try await account.table("POST", "/tables/TodoItem", ["id": id, "text": "Old task", "listId": work.id]).status == 201)
        let (workBefore, homeBefore) = (try await account.ctag(work.path), try await account.ctag(home.path))
        #expect(try await account.table("DELETE", "/tables/TodoItem/\(id)").status == 200)
        #expect(try await account.ctag(work.path) != workBefore)
        #expect(try await account.ctag(home.path) == homeBefore)
    }

    @Test(arguments: DAVStore.allCases)
    func aTaskMovedToAnotherListChangesBothListsTokens(_ store: DAVStore) async throws {
        let (account, work, home) = try await twoLists(store)
        let id = Tasks.uid()
        #expect(try await account.table("POST", "/tables/TodoItem", ["id": id, "text": "Plants", "listId": work.id]).status == 201)
        let (workBefore, homeBefore) = (try await account.ctag(work.path), try await account.ctag(home.path))
        #expect(try await account.table("PATCH", "/tables/TodoItem/\(id)", ["listId": home.id]).status == 200)
        #expect(try await account.ctag(work.path) != workBefore)
        #expect(try await account.ctag(home.path) != homeBefore)
    }

    @Test(arguments: DAVStore.allCases)
    func theListATaskLeftReportsItGoneFromItsOwnToken(_ store: DAVStore) async throws {
        let (account, work, home) = try await twoLists(store)
        let id = Tasks.uid()
        #expect(try await account.table("POST", "/tables/TodoItem", ["id": id, "text": "Plants", "listId": work.id]).status == 201)
        let token = try #require(try await account.xml("REPORT", work.path, Tasks.syncCollection("")).multiStatus.syncToken)
        #expect(try await account.table("PATCH", "/tables/TodoItem/\(id)", ["listId": home.id]).status == 200)
        let report = try await account.xml("REPORT", work.path, Tasks.syncCollection(token)).multiStatus
        #expect(report.gone.contains { $0.hasSuffix("/\(id).ics") })
    }

    @Test(arguments: DAVStore.allCases)
    func theInboxKeepsItsOwnToken(_ store: DAVStore) async throws {
        let (account, work, _) = try await twoLists(store)
        let (workBefore, inboxBefore) = (try await account.ctag(work.path), try await account.ctag(account.inbox))
        #expect(try await account.table("POST", "/tables/TodoItem", ["id": Tasks.uid(), "text": "Loose end"]).status == 201)
        #expect(try await account.ctag(account.inbox) != inboxBefore)
        #expect(try await account.ctag(work.path) == workBefore)
    }

    @Test(arguments: DAVStore.allCases)
    func aSyncReportEndsAtTheListsCTagThoughOtherListsChangedSince(_ store: DAVStore) async throws {
        let (account, work, home) = try await twoLists(store)
        let uid = Tasks.uid()
        try await account.store(work.path + "\(uid).ics", Tasks.vtodo(uid, "Write the report"))
        let other = Tasks.uid()
        try await account.store(home.path + "\(other).ics", Tasks.vtodo(other, "Water the plants"))
        let token = try #require(try await account.xml("REPORT", work.path, Tasks.syncCollection("")).multiStatus.syncToken)
        #expect(token == (try await account.ctag(work.path)))
        let again = try await account.xml("REPORT", work.path, Tasks.syncCollection(token)).multiStatus
        #expect(again.responses.isEmpty)
        #expect(again.syncToken == token)
    }

    @Test func aWriteThroughOneServerProcessChangesOnlyItsListsTokenSeenByAnother() async throws {
        let first = try await DAVServers.shared.server(.postgres)
        let (account, work, home) = try await twoLists(.postgres)
        let process = try await ServerProcess.start(arguments: ["--database", first.database, "--auth", "required"])
        defer { _ = process.stop() }
        let seenElsewhere = DAVAccount(server: DAVServer(process: process, database: first.database), name: account.name, password: account.password)
        let (workBefore, homeBefore) = (try await seenElsewhere.ctag(work.path), try await seenElsewhere.ctag(home.path))
        let uid = Tasks.uid()
        try await account.store(work.path + "\(uid).ics", Tasks.vtodo(uid, "Write the report"))
        #expect(try await seenElsewhere.ctag(work.path) != workBefore)
        #expect(try await seenElsewhere.ctag(home.path) == homeBefore)
    }
}

extension DAVAccount {
    /// The collection's `getctag` now.
    func ctag(_ path: String) async throws -> String? {
        try await xml("PROPFIND", path, depth: "0", Tasks.propfind(["cs:getctag"])).multiStatus.response(path)?.properties["getctag"]
    }
}
