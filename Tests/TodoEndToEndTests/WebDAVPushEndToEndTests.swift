import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ServerTestSupport
import Testing

/// WebDAV-Push end to end: a real todo-server pushes to a local Web Push receiver
/// (`PushReceiver`), which checks each message's VAPID token and decrypts it with the
/// subscription's private key, as a phone's push service and DAVx5 would. A change made by
/// `todo`, over CalDAV or by a share reaches the list's subscribers within a second.
@Suite struct WebDAVPushEndToEndTests {
    typealias Household = SharingCommandTests.Household

    /// A household whose server may push to the receiver on loopback.
    private func household() async throws -> Household {
        try await Household.make(serverArguments: ["--push-allow-local"])
    }

    /// `user`'s CalDAV request (Basic, as a phone signs in).
    private func dav(_ h: Household, _ user: String, _ method: String, _ path: String, body: String? = nil, depth: String? = nil)
        async throws -> (status: Int, headers: [String: String], text: String) {
        var request = URLRequest(url: URL(string: path.hasPrefix("http") ? path : h.url + path)!)
        request.httpMethod = method
        request.setValue("Basic " + Data("\(user):password \(user)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        if let depth { request.setValue(depth, forHTTPHeaderField: "Depth") }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/xml; charset=utf-8", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields { headers[String(describing: name).lowercased()] = String(describing: value) }
        return (http.statusCode, headers, String(decoding: data, as: UTF8.self))
    }

    /// The calendar of `user`'s list `name` (made and synced by `todo`).
    private func calendar(_ h: Household, _ user: String, list name: String) async throws -> String {
        let home = "/dav/calendars/\(user)/"
        let listing = try await dav(h, user, "PROPFIND", home, body: #"<propfind xmlns="DAV:"><prop><displayname/></prop></propfind>"#, depth: "1")
        for response in listing.text.components(separatedBy: "<D:response>") where response.contains("<D:displayname>\(name)</D:displayname>") {
            if let start = response.range(of: "<D:href>"), let end = response.range(of: "</D:href>") {
                return String(response[start.upperBound..<end.lowerBound])
            }
        }
        throw ServerStartError(description: "no calendar named \(name) in \(listing.text)")
    }

    /// One property of the calendar, as PROPFIND answers it.
    private func property(_ h: Household, _ user: String, _ calendar: String, _ name: String) async throws -> String {
        let reply = try await dav(h, user, "PROPFIND", calendar, body: #"""
            <propfind xmlns="DAV:" xmlns:P="https://bitfire.at/webdav-push"><prop><P:topic/><P:transports/><sync-token/></prop></propfind>
            """#, depth: "0")
        let text = reply.text
        guard let open = text.range(of: "<\(name)>") ?? text.range(of: "<\(name) type=\"p256ecdsa\">"), let close = text.range(of: "</\(name)>") else {
            throw ServerStartError(description: "no \(name) in \(text)")
        }
        return String(text[open.upperBound..<close.lowerBound])
    }

    /// Registers `subscription` on the calendar as DAVx5 does (no trigger); answers the
    /// registration URL.
    @discardableResult
    private func register(_ h: Household, _ user: String, _ calendar: String, _ subscription: PushReceiver.Subscription) async throws -> String {
        let reply = try await dav(h, user, "POST", calendar, body: """
            <push-register xmlns="https://bitfire.at/webdav-push"><subscription><web-push-subscription>
            <push-resource>\(subscription.endpoint)</push-resource>
            <subscription-public-key type="p256dh">\(subscription.publicKey)</subscription-public-key>
            <auth-secret>\(subscription.authSecret)</auth-secret>
            </web-push-subscription></subscription></push-register>
            """)
        #expect(reply.status == 201, "\(reply.text)")
        return try #require(reply.headers["location"])
    }

    /// Ann's Groceries, made and synced by `todo`, with a receiver whose subscriptions (one per
    /// mode) are registered on its calendar.
    private func subscribedGroceries(_ h: Household, _ modes: [String] = ["ok"]) async throws -> (receiver: PushReceiver, calendar: String, registrations: [String]) {
        try await add(h, "milk")
        let calendar = try await calendar(h, "ann", list: "Groceries")
        let receiver = try await PushReceiver.start(modes)
        var registrations: [String] = []
        for subscription in receiver.subscriptions { registrations.append(try await register(h, "ann", calendar, subscription)) }
        return (receiver, calendar, registrations)
    }

    /// `todo add ITEM --list LIST` and a sync, on ann's device.
    private func add(_ h: Household, _ item: String, to list: String = "Groceries") async throws {
        #expect(try await h.todo(["add", item, "--list", list], h.ann).status == 0)
        #expect(try await h.todo(["sync"], h.ann).status == 0)
    }

    /// The sync token a push message carries.
    private func syncToken(_ message: PushReceiver.Message) -> String? {
        guard let text = message.text, let open = text.range(of: "<D:sync-token>"), let close = text.range(of: "</D:sync-token>") else { return nil }
        return String(text[open.upperBound..<close.lowerBound])
    }

    @Test func aTodoWriteReachesTheListsSubscriberEncryptedSignedAndNamingItsTopic() async throws {
        let h = try await household()
        defer { h.server.stop() }
        let (receiver, calendar, _) = try await subscribedGroceries(h)
        defer { receiver.stop() }
        let phone = receiver.subscriptions[0]

        try await add(h, "eggs")
        #expect(try await holds(within: .seconds(1)) { !receiver.messages(to: phone).isEmpty })
        let message = try #require(try await receiver.waitForMessages(to: phone, count: 1).first)
        #expect(message.error == nil)
        #expect(message.text?.contains("<P:topic>\(try await property(h, "ann", calendar, "P:topic"))</P:topic>") == true)
        #expect(syncToken(message) == (try await property(h, "ann", calendar, "D:sync-token")))
        #expect(message.vapidKey == (try await property(h, "ann", calendar, "P:vapid-public-key")))
        #expect(message.headers["Content-Encoding"] == "aes128gcm")
        #expect(message.headers["TTL"] != nil)
    }

    @Test func aCalDAVWriteReachesTheListsSubscriber() async throws {
        let h = try await household()
        defer { h.server.stop() }
        let (receiver, calendar, _) = try await subscribedGroceries(h)
        defer { receiver.stop() }
        let phone = receiver.subscriptions[0]

        var put = URLRequest(url: URL(string: h.url + calendar + "bread.ics")!)
        put.httpMethod = "PUT"
        put.setValue("Basic " + Data("ann:password ann".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        put.setValue("text/calendar", forHTTPHeaderField: "Content-Type")
        put.httpBody = Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTODO\r\nUID:bread\r\nSUMMARY:bread\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8)
        let (_, response) = try await URLSession.shared.data(for: put)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(try await holds(within: .seconds(1)) { !receiver.messages(to: phone).isEmpty })
        #expect(syncToken(try #require(receiver.messages(to: phone).last)) == (try await property(h, "ann", calendar, "D:sync-token")))
    }

    @Test func sharingAListReachesItsSubscriberAndAMembersWritesReachTheOwnersPhone() async throws {
        let h = try await household()
        defer { h.server.stop() }
        let (receiver, calendar, _) = try await subscribedGroceries(h)
        defer { receiver.stop() }
        let phone = receiver.subscriptions[0]

        #expect(try await h.todo(["share", "Groceries", "--with", "bob"], h.ann).status == 0)
        #expect(try await holds(within: .seconds(1)) { !receiver.messages(to: phone).isEmpty })
        let afterShare = receiver.messages(to: phone).count
        #expect(try await h.todo(["sync"], h.bob).status == 0)
        #expect(try await h.todo(["add", "butter", "--list", "Groceries"], h.bob).status == 0)
        #expect(try await h.todo(["sync"], h.bob).status == 0)
        #expect(try await holds(within: .seconds(2)) { receiver.messages(to: phone).count > afterShare })
        #expect(syncToken(try #require(receiver.messages(to: phone).last)) == (try await property(h, "ann", calendar, "D:sync-token")))
    }

    @Test func aChangeToAnotherListIsNotPushed() async throws {
        let h = try await household()
        defer { h.server.stop() }
        let receiver = try await PushReceiver.start(["ok"])
        defer { receiver.stop() }
        #expect(try await h.todo(["add", "milk", "--list", "Groceries"], h.ann).status == 0)
        #expect(try await h.todo(["add", "report", "--list", "Work"], h.ann).status == 0)
        #expect(try await h.todo(["sync"], h.ann).status == 0)
        let groceries = try await calendar(h, "ann", list: "Groceries")
        let phone = receiver.subscriptions[0]
        try await register(h, "ann", groceries, phone)

        #expect(try await h.todo(["add", "slides", "--list", "Work"], h.ann).status == 0)
        #expect(try await h.todo(["sync"], h.ann).status == 0)
        try await add(h, "eggs")
        // Had Work's change been pushed, the first message would carry Groceries' older token.
        let first = try #require(try await receiver.waitForMessages(to: phone, count: 1).first)
        #expect(syncToken(first) == (try await property(h, "ann", groceries, "D:sync-token")))
    }

    @Test func aSubscriptionThePushServiceSaysIsGoneIsDropped() async throws {
        let h = try await household()
        defer { h.server.stop() }
        let (receiver, calendar, registrations) = try await subscribedGroceries(h, ["gone"])
        defer { receiver.stop() }

        try await add(h, "eggs")
        _ = try await receiver.waitForMessages(to: receiver.subscriptions[0], count: 1)
        // Dropped by the server: registering the same push resource again makes a new registration,
        // where renewing a live one keeps its URL.
        #expect(try await holds(within: .seconds(10)) { try await register(h, "ann", calendar, receiver.subscriptions[0]) != registrations[0] })
    }

    @Test func aPushServiceThatNeverAnswersDelaysNoWriteAndNoOtherSubscriber() async throws {
        let h = try await household()
        defer { h.server.stop() }
        let (receiver, calendar, _) = try await subscribedGroceries(h, ["hold", "ok"])
        defer { receiver.stop() }
        let (stuck, phone) = (receiver.subscriptions[0], receiver.subscriptions[1])

        try await add(h, "eggs")
        #expect(try await receiver.waitForMessages(to: stuck, count: 1).first?.held == true)
        // The stuck push service still holds its message: writes and the other phone go on.
        for item in ["bread", "butter", "jam"] { try await add(h, item) }
        let token = try await property(h, "ann", calendar, "D:sync-token")
        #expect(try await holds(within: .seconds(5)) { receiver.messages(to: phone).contains { syncToken($0) == token } })
        #expect(receiver.messages(to: stuck).count == 1, "the held send is still open")
    }

    @Test func aSubscriptionOutlivesARestartOfTheServer() async throws {
        let accounts = try await AccountServer.start(arguments: ["--push-allow-local"])
        let home = try TempDir.make()
        try await accounts.signIn("ann", home: home)
        var server = accounts.server
        defer { _ = server.stop() }
        let receiver = try await PushReceiver.start(["ok"])
        defer { receiver.stop() }
        let h = Household(server: server, url: accounts.url, ann: home, bob: home)
        #expect(try await h.todo(["add", "milk", "--list", "Groceries"], home).status == 0)
        #expect(try await h.todo(["sync"], home).status == 0)
        let calendar = try await calendar(h, "ann", list: "Groceries")
        try await register(h, "ann", calendar, receiver.subscriptions[0])

        _ = server.stop()
        server = try await ServerProcess.start(arguments: ["--database", accounts.database, "--auth", "required", "--push-allow-local", "--port", "\(accounts.server.port)"])
        #expect(try await h.todo(["add", "eggs", "--list", "Groceries"], home).status == 0)
        #expect(try await h.todo(["sync"], home).status == 0)
        #expect(try await receiver.waitForMessages(to: receiver.subscriptions[0], count: 1).count == 1)
    }
}
