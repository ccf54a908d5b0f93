import Foundation
import Testing

/// How a CalDAV client finds the lists, and who may ask (RFC 6764, RFC 5397, RFC 4791 §6).
@Suite struct DiscoveryTests {
    @Test(arguments: DAVStore.allCases)
    func wellKnownLeadsToTheRoot(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let reply = try await Curl.head("PROPFIND", server.baseURL.absoluteString + "/.well-known/caldav")
        #expect(reply.status == 301)
        #expect(reply.headers["location"] == "/dav/")
    }

    @Test(arguments: DAVStore.allCases)
    func theRootNamesTheSignedInPrincipalAndItsHome(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let root = try await account.xml("PROPFIND", "/dav/", depth: "0", Tasks.propfind(["d:current-user-principal"])).multiStatus
        #expect(root.responses.first?.properties["current-user-principal"] == "/dav/principals/\(account.name)/")
        let principal = try await account.xml("PROPFIND", "/dav/principals/\(account.name)/", depth: "0", Tasks.propfind(["c:calendar-home-set"])).multiStatus
        #expect(principal.responses.first?.properties["calendar-home-set"] == account.home)
    }

    @Test func optionsAdvertisesCalDAVExtendedMKCOLAndWebDAVPush() async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let reply = try await account.dav("OPTIONS", "/dav/")
        #expect(reply.headers["dav"] == "1, 3, calendar-access, extended-mkcol, webdav-push")
        #expect(reply.headers["allow"]?.contains("REPORT") == true)
    }

    @Test(arguments: DAVStore.allCases)
    func aMissingOrWrongPasswordGetsABasicChallenge(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let account = try await server.addAccount()
        // curl, not URLSession: Foundation on Linux waits forever on a 401 with a Basic challenge.
        let none = try await Curl.head("PROPFIND", server.baseURL.absoluteString + "/dav/")
        #expect(none.status == 401)
        #expect(none.headers["www-authenticate"]?.hasPrefix("Basic realm=") == true)
        let wrong = try await Curl.head("PROPFIND", server.baseURL.absoluteString + account.home, user: "\(account.name):not the password")
        #expect(wrong.status == 401)
        #expect(wrong.headers["www-authenticate"]?.hasPrefix("Basic") == true)
        let right = try await Curl.head("PROPFIND", server.baseURL.absoluteString + account.home, user: "\(account.name):\(account.password)")
        #expect(right.status == 207)
    }

    @Test(arguments: DAVStore.allCases)
    func theHomeListsTheInboxAndEveryListAsTaskCalendars(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let groceries = try await account.makeList("Groceries")
        let home = try await account.xml("PROPFIND", account.home, Tasks.propfind(["d:displayname", "d:resourcetype", "c:supported-calendar-component-set", "cs:getctag", "d:sync-token"])).multiStatus
        let inbox = try #require(home.response("/inbox/"))
        #expect(inbox.properties["displayname"] == "Inbox")
        let list = try #require(home.response(groceries.path))
        #expect(list.properties["displayname"] == "Groceries")
        #expect(list.properties["resourcetype"] == "collection calendar")
        #expect(list.properties["supported-calendar-component-set"] == "comp")
        #expect(list.properties["getctag"]?.hasPrefix("urn:x-offlinetodo:sync:") == true)
    }

    @Test(arguments: DAVStore.allCases)
    func anotherAccountsListAnswersAsAMissingOne(_ store: DAVStore) async throws {
        let server = try await DAVServers.shared.server(store)
        let ann = try await server.addAccount(), bob = try await server.addAccount()
        let list = try await ann.makeList("Private")
        let viaBobsHome = try await bob.xml("PROPFIND", bob.home + list.id + "/", depth: "0", Tasks.propfindAll)
        let missing = try await bob.xml("PROPFIND", bob.home + "no-such-list/", depth: "0", Tasks.propfindAll)
        let annsHome = try await bob.xml("PROPFIND", list.path, depth: "0", Tasks.propfindAll)
        #expect(viaBobsHome.status == 404)
        #expect(annsHome.status == 404)
        #expect(viaBobsHome.text == missing.text)
    }
}
