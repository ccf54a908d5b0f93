import Foundation
import ServerTestSupport
import Testing

/// WebDAV-Push registration, as the draft specifies and DAVx5 sends it: the properties that
/// advertise it, `POST push-register` (201 with the registration's URL and expiry), `DELETE`
/// of that URL, and the 403 preconditions. The push resources here are public addresses that
/// nothing is ever sent to (no list changes after the registration), or refused ones.
@Suite struct WebDAVPushRegistrationTests {
    /// A push resource on a public address, unique per test.
    static func publicResource() -> String { "https://8.8.8.8/wpush/\(UUID().uuidString.lowercased())" }
    /// A valid subscription public key (RFC 8291's example user agent's).
    static let publicKey = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"

    static func registration(resource: String, publicKey: String? = WebDAVPushRegistrationTests.publicKey, trigger: String? = nil, expires: Date? = nil) -> String {
        let keys = publicKey.map { "<subscription-public-key type=\"p256dh\">\($0)</subscription-public-key><auth-secret>\(authSecret)</auth-secret>" } ?? ""
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return """
            <push-register xmlns="https://bitfire.at/webdav-push" xmlns:D="DAV:"><subscription><web-push-subscription>
            <push-resource>\(resource)</push-resource>\(keys)</web-push-subscription></subscription>\(trigger ?? "")\(expires.map { "<expires>\(formatter.string(from: $0))</expires>" } ?? "")
            </push-register>
            """
    }

    private func register(_ account: DAVAccount, _ path: String, _ body: String) async throws -> DAVReply {
        try await account.dav("POST", path, headers: ["Content-Type": "application/xml; charset=utf-8"], body: body)
    }

    private func expires(_ reply: DAVReply) throws -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return try #require(reply.headers["expires"].flatMap(formatter.date(from:)))
    }

    @Test func aCalendarAdvertisesWebPushWithTheServersKeyItsTopicAndContentUpdates() async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let list = try await account.makeList("Work")
        let reply = try await account.xml("PROPFIND", list.path, depth: "0", #"""
            <propfind xmlns="DAV:" xmlns:P="https://bitfire.at/webdav-push"><prop><P:transports/><P:topic/><P:supported-triggers/></prop></propfind>
            """#)
        #expect(reply.text.contains(#"<P:web-push><P:vapid-public-key type="p256ecdsa">B"#))
        #expect(reply.text.contains("<P:supported-triggers><P:content-update><D:depth>1</D:depth></P:content-update></P:supported-triggers>"))
        #expect(reply.text.range(of: "<P:topic>[0-9a-f]{16}</P:topic>", options: .regularExpression) != nil)
    }

    @Test func twoMembersSeeOneTopicForOneListAndEachListHasItsOwn() async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let work = try await account.makeList("Work"), home = try await account.makeList("Home")
        func topic(_ path: String) async throws -> String? {
            let text = try await account.xml("PROPFIND", path, depth: "0", #"<propfind xmlns="DAV:" xmlns:P="https://bitfire.at/webdav-push"><prop><P:topic/></prop></propfind>"#).text
            return text.range(of: "<P:topic>[0-9a-f]{16}</P:topic>", options: .regularExpression).map { String(text[$0]) }
        }
        #expect(try await topic(work.path) != nil)
        #expect(try await topic(work.path) == topic(work.path))
        #expect(try await topic(work.path) != topic(home.path))
        #expect(try await topic(account.inbox) != topic(work.path))
    }

    @Test(arguments: DAVStore.allCases)
    func aRegistrationAnswers201WithItsURLAndExpiryAndDeleteEndsIt(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Work")
        let reply = try await register(account, list.path, Self.registration(resource: Self.publicResource()))
        #expect(reply.status == 201, "\(reply.text)")
        let location = try #require(reply.headers["location"])
        #expect(location.hasPrefix(account.server.baseURL.absoluteString + "/dav/push-subscriptions/"))
        let expiry = try expires(reply)
        #expect(expiry > Date().addingTimeInterval(3 * 86_400) && expiry <= Date().addingTimeInterval(7 * 86_400 + 5))
        let path = try #require(URL(string: location)?.path)
        #expect(try await account.dav("DELETE", path).status == 204)
        #expect(try await account.dav("DELETE", path).status == 404)
    }

    @Test(arguments: DAVStore.allCases)
    func registeringTheSameResourceAgainRenewsTheOneRegistration(_ store: DAVStore) async throws {
        let account = try await DAVServers.shared.server(store).addAccount()
        let list = try await account.makeList("Work")
        let resource = Self.publicResource()
        let first = try await register(account, list.path, Self.registration(resource: resource, expires: Date().addingTimeInterval(2 * 86_400)))
        let second = try await register(account, list.path, Self.registration(resource: resource, expires: Date().addingTimeInterval(5 * 86_400)))
        #expect(first.status == 201 && second.status == 201)
        #expect(first.headers["location"] == second.headers["location"])
        #expect(try expires(second).timeIntervalSince(try expires(first)) > 2.9 * 86_400)
        _ = try await account.dav("DELETE", try #require(URL(string: second.headers["location"] ?? "")?.path))
    }

    @Test func aRequestedExpiryIsHeldToAWeek() async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let list = try await account.makeList("Work")
        let reply = try await register(account, list.path, Self.registration(resource: Self.publicResource(), expires: Date().addingTimeInterval(365 * 86_400)))
        #expect(try expires(reply) <= Date().addingTimeInterval(7 * 86_400 + 5))
        _ = try await account.dav("DELETE", try #require(URL(string: reply.headers["location"] ?? "")?.path))
    }

    @Test(arguments: ["https://127.0.0.1/push/x", "https://localhost:8443/push/x", "https://10.0.0.7/push/x", "https://169.254.169.254/latest/meta-data/",
                      "https://[::1]/push/x", "https://[fd12::1]/push/x", "http://8.8.8.8/push/x", "file:///etc/passwd"])
    func aPushResourceThatIsNotAPublicHTTPSURLIsRefused(_ resource: String) async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let list = try await account.makeList("Work")
        let reply = try await register(account, list.path, Self.registration(resource: resource))
        #expect(reply.status == 403)
        #expect(reply.text.contains("<P:invalid-subscription/>"), "\(reply.text)")
    }

    @Test func aSubscriptionWithoutItsKeysIsRefused() async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let list = try await account.makeList("Work")
        let reply = try await register(account, list.path, Self.registration(resource: Self.publicResource(), publicKey: nil))
        #expect(reply.status == 403)
        #expect(reply.text.contains("<P:invalid-subscription/>"))
    }

    @Test func aSubscriptionKeyThatIsNoP256PointIsRefused() async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let list = try await account.makeList("Work")
        let reply = try await register(account, list.path, Self.registration(resource: Self.publicResource(), publicKey: "BAAA"))
        #expect(reply.status == 403)
        #expect(reply.text.contains("<P:invalid-subscription/>"))
    }

    @Test func aRegistrationAskingOnlyForPropertyUpdatesIsRefused() async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let list = try await account.makeList("Work")
        let trigger = "<trigger><property-update><D:depth>0</D:depth></property-update></trigger>"
        let reply = try await register(account, list.path, Self.registration(resource: Self.publicResource(), trigger: trigger))
        #expect(reply.status == 403)
        #expect(reply.text.contains("<P:no-trigger-supported/>"))
    }

    @Test func aContentUpdateTriggerOfAnyDepthAboveZeroIsTaken() async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let list = try await account.makeList("Work")
        let trigger = "<trigger><content-update><D:depth>infinity</D:depth></content-update><property-update><D:depth>0</D:depth></property-update></trigger>"
        let reply = try await register(account, list.path, Self.registration(resource: Self.publicResource(), trigger: trigger))
        #expect(reply.status == 201, "\(reply.text)")
        _ = try await account.dav("DELETE", try #require(URL(string: reply.headers["location"] ?? "")?.path))
    }

    @Test func anotherAccountCanNeitherSubscribeToAListNorRemoveARegistration() async throws {
        let server = try await DAVServers.shared.server(.sqlite)
        let (ann, eve) = (try await server.addAccount(), try await server.addAccount())
        let list = try await ann.makeList("Work")
        #expect(try await register(eve, list.path, Self.registration(resource: Self.publicResource())).status == 404)
        let reply = try await register(ann, list.path, Self.registration(resource: Self.publicResource()))
        let path = try #require(URL(string: reply.headers["location"] ?? "")?.path)
        #expect(try await eve.dav("DELETE", path).status == 404)
        #expect(try await ann.dav("DELETE", path).status == 204)
    }

    @Test func aRegistrationURLAnswersOnlyDelete() async throws {
        let account = try await DAVServers.shared.server(.sqlite).addAccount()
        let list = try await account.makeList("Work")
        let reply = try await register(account, list.path, Self.registration(resource: Self.publicResource()))
        let path = try #require(URL(string: reply.headers["location"] ?? "")?.path)
        let get = try await account.dav("GET", path)
        #expect(get.status == 405)
        #expect(get.headers["allow"] == "OPTIONS, DELETE")
        _ = try await account.dav("DELETE", path)
    }

    @Test func anAccountHoldsABoundedNumberOfRegistrations() async throws {
        let database = try DAVStore.sqlite.databaseArgument()
        let process = try await ServerProcess.start(arguments: ["--database", database, "--auth", "required", "--max-push-subscriptions", "2"])
        defer { process.stop() }
        let account = try await DAVServer(process: process, database: database).addAccount()
        let list = try await account.makeList("Work")
        for _ in 0..<2 { #expect(try await register(account, list.path, Self.registration(resource: Self.publicResource())).status == 201) }
        let third = try await register(account, list.path, Self.registration(resource: Self.publicResource()))
        #expect(third.status == 403)
        #expect(third.text.contains("<P:push-not-available/>"))
    }
}
