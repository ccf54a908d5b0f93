import Foundation
import Testing

/// RFC 9110's conditional writes and RFC 4791's UID rule.
@Suite struct PreconditionTests {
    @Test(arguments: DAVStore.allCases)
    func ifNoneMatchStarRefusesAnExistingResource(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let uid = Tasks.uid()
        try await account.store(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "First"))
        let again = try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Second"), headers: ["If-None-Match": "*"])
        #expect(again.status == 412)
        #expect(try await account.item(uid)?["text"] as? String == "First")
    }

    @Test(arguments: DAVStore.allCases)
    func ifMatchWithTheCurrentETagWritesAndAnswersTheNewOne(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let uid = Tasks.uid()
        let first = try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "First"))
        let second = try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Second"), headers: ["If-Match": first.etag ?? ""])
        #expect(second.status == 204)
        #expect(second.etag != nil && second.etag != first.etag)
        #expect(try await account.dav("GET", account.inbox + "\(uid).ics").etag == second.etag)
    }

    @Test(arguments: DAVStore.allCases)
    func ifMatchOnAMissingResourceFails(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let uid = Tasks.uid()
        #expect(try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "x"), headers: ["If-Match": "*"]).status == 412)
        #expect(try await account.item(uid) == nil)
    }

    @Test(arguments: DAVStore.allCases)
    func aPutWithoutIfMatchOverwrites(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let uid = Tasks.uid()
        try await account.store(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Old"))
        #expect(try await account.put(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "New")).status == 204)
        #expect(try await account.item(uid)?["text"] as? String == "New")
    }

    @Test(arguments: DAVStore.allCases)
    func aUIDAlreadyInTheListUnderAnotherNameIsRefused(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let uid = Tasks.uid()
        try await account.store(account.inbox + "\(uid).ics", Tasks.vtodo(uid, "Original"))
        let clash = try await account.put(account.inbox + "other.ics", Tasks.vtodo(uid, "Copy"))
        #expect(clash.status == 403)
        #expect(clash.text.contains("no-uid-conflict"))
        #expect(try await account.item(uid)?["text"] as? String == "Original")
    }
}
