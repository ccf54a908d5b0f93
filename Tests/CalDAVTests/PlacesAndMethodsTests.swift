import Foundation
import Testing

/// What each place answers to each method: a missing list is missing for every method, HEAD
/// tells GET's length, a refused method names those the place takes, and a list is made only in
/// the home.
@Suite struct PlacesAndMethodsTests {
    @Test(arguments: ["GET", "HEAD"])
    func aListThatDoesNotExistIsNotFound(_ method: String) async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        #expect(try await account.dav(method, account.home + "no-such-list/").status == 404)
    }

    @Test(arguments: ["root", "home", "inbox"])
    func headAnswersTheLengthGetWould(_ place: String) async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let path = ["root": "/dav/", "home": account.home, "inbox": account.inbox][place]!
        let get = try await account.dav("GET", path)
        let head = try await account.dav("HEAD", path)
        #expect(get.status == 200 && head.status == 200)
        #expect(head.headers["content-length"] == String(get.text.utf8.count))
    }

    @Test func putOnAListIsRefusedNamingTheMethodsAListTakes() async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let reply = try await account.put(account.inbox, Tasks.vtodo(Tasks.uid(), "Misplaced"))
        #expect(reply.status == 405)
        let allowed = Set((reply.headers["allow"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(allowed.isSuperset(of: ["DELETE", "PROPPATCH", "PROPFIND", "REPORT"]))
        #expect(!allowed.contains("PUT"))
    }

    @Test(arguments: ["MKCALENDAR", "MKCOL"])
    func aListInsideAListIsRefusedAsTheWrongLocation(_ method: String) async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let reply = try await account.dav(method, account.inbox + "inner/")
        #expect(reply.status == 403)
        #expect(reply.text.contains("calendar-collection-location-ok"))
    }

    @Test func anotherAccountsPathAnswersAsIfMissing() async throws {
        let server = try await DAVServers.shared.server(.sqlite)
        let ann = try await server.addAccount(), bob = try await server.addAccount()
        #expect(try await bob.dav("MKCALENDAR", ann.inbox + "inner/").status == 404)
    }

    @Test func aDisplayNameOverTheLimitIsRefusedAndTheListKeepsItsName() async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let long = String(repeating: "n", count: 201)
        let made = try await account.dav("MKCALENDAR", account.home + "long/", body:
            #"<?xml version="1.0"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>\#(long)</d:displayname></d:prop></d:set></c:mkcalendar>"#)
        #expect(made.status == 403)
        #expect(made.text.contains("at most 200 characters"))
        let list = try await account.makeList("Short")
        let patched = try await account.dav("PROPPATCH", list.path, body:
            #"<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>\#(long)</d:displayname></d:prop></d:set></d:propertyupdate>"#)
        #expect(patched.multiStatus.responses.first?.missing == ["displayname"])
        let names = try await account.xml("PROPFIND", list.path, depth: "0", Tasks.propfind(["d:displayname"]))
        #expect(names.multiStatus.responses.first?.properties["displayname"] == "Short")
    }

    /// RFC 7617 asks for UTF-8, and older clients send ISO-8859-1: both sign in.
    @Test(arguments: [String.Encoding.utf8, .isoLatin1])
    func basicCredentialsSignInInEitherCharset(_ encoding: String.Encoding) async throws {
        let server = try await DAVServers.shared.server(.sqlite)
        let account = try await server.addAccount(password: "pässwörd straße")
        let pair = try #require("\(account.name):\(account.password)".data(using: encoding))
        let reply = try await DAVHTTP.send("PROPFIND", server.baseURL.absoluteString + account.home,
                                           headers: ["Authorization": "Basic " + pair.base64EncodedString(), "Depth": "0"], body: nil)
        #expect(reply.status == 207)
    }
}
