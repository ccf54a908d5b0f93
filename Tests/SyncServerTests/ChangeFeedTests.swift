import Foundation
import ServerTestSupport
import Testing

/// `GET /tables/{table}/changes` (Server-Sent Events): every committed write is announced to the
/// open feeds of its owner, at once, and a reconnecting subscriber is replayed what it missed.
@Suite struct ChangeFeedTests {
    @Test(arguments: Backend.allCases)
    func aWriteIsAnnouncedOnAnOpenFeedWithItsIdAndUpdatedAt(_ backend: Backend) async throws {
        let server = try await SharedServers.shared.process(backend)
        let table = uniqueTable("feed")
        _ = try await TableClient(server).insertAll(table, [["id": "seed"]])
        let feed = try FeedReader(port: server.port, table: table)
        #expect(try await feed.open() == 200)

        let written = try await TableClient(server).post("tables/\(table)", ["id": "a1", "text": "milk"])
        // Delivery is at least once: the seed's notice, sent just after its commit, may come first.
        var event = try #require(try await feed.next())
        if event.data.contains(#""id":"seed""#) { event = try #require(try await feed.next()) }
        #expect(event.name == "change")
        #expect(event.id == written.object["updatedAt"] as? String)
        #expect(event.data.contains(#""id":"a1""#))
        #expect(event.data.contains(#""deleted":false"#))
    }

    /// A client that hears of a table's first row queries it at once, while the writing request
    /// may not have recorded the new table yet; an earlier query had seen no table at all.
    @Test(arguments: Backend.allCases)
    func theFirstRowOfANewTableIsReadableAsSoonAsItIsAnnounced(_ backend: Backend) async throws {
        let server = try await SharedServers.shared.process(backend)
        let client = TableClient(server)
        for round in 0..<20 {
            let table = uniqueTable("new")
            let feed = try FeedReader(port: server.port, table: table)
            _ = try await feed.open()
            #expect(try await client.get("tables/\(table)").array.isEmpty, "no table yet")
            #expect(try await client.post("tables/\(table)", ["id": "first", "text": "hello"]).status == 201)
            _ = try #require(try await feed.next())
            #expect(try await client.get("tables/\(table)").ids == ["first"], "round \(round)")
        }
    }

    @Test func aDeleteIsAnnouncedAsDeleted() async throws {
        let server = try await SharedServers.shared.process(.sqlite)
        let table = uniqueTable("feed")
        _ = try await TableClient(server).insertAll(table, [["id": "a1"]])
        let feed = try FeedReader(port: server.port, table: table)
        _ = try await feed.open()
        #expect(try await TableClient(server).delete("tables/\(table)/a1").status == 200)
        let event = try #require(try await feed.next())
        #expect(event.data.contains(#""deleted":true"#))
    }

    @Test(arguments: Backend.allCases)
    func aSubscriberReconnectingWithLastEventIDIsReplayedEveryChangeItMissedInOrder(_ backend: Backend) async throws {
        let server = try await SharedServers.shared.process(backend)
        let table = uniqueTable("feed")
        let client = TableClient(server)
        let first = try await client.post("tables/\(table)", ["id": "before"])
        let seen = try #require(first.object["updatedAt"] as? String)
        for id in ["m1", "m2", "m3"] { _ = try await client.post("tables/\(table)", ["id": id]) }

        let feed = try FeedReader(port: server.port, table: table, headers: ["Last-Event-ID": seen])
        _ = try await feed.open()
        let replayed = try await feed.drain(quiet: 2)
        #expect(replayed.map { Self.id(of: $0) } == ["m1", "m2", "m3"])

        let bySince = try FeedReader(port: server.port, table: table, query: "since=\(seen)")
        _ = try await bySince.open()
        #expect(try await bySince.drain(quiet: 2).count == 3)
    }

    @Test func aFeedTellsAUserOnlyAboutTheirOwnRows() async throws {
        let auth = try await AuthServer(.sqlite, process: true)
        let (alice, bob) = (try await auth.addUser("alice"), try await auth.addUser("bob"))
        let (aliceToken, bobToken) = (try await auth.token(alice), try await auth.token(bob))
        let table = uniqueTable("feed")
        let feed = try FeedReader(port: auth.port, table: table, headers: ["X-ZUMO-AUTH": aliceToken])
        #expect(try await feed.open() == 200)

        #expect(try await auth.client(token: bobToken).post("tables/\(table)", ["id": "bob-1"]).status == 201)
        #expect(try await auth.client(token: aliceToken).post("tables/\(table)", ["id": "alice-1"]).status == 201)
        // Bob wrote first: had his change leaked, it would be the first event.
        let first = try #require(try await feed.next(timeout: 15))
        #expect(Self.id(of: first) == "alice-1")
        #expect(try await feed.drain(quiet: 1).isEmpty)
    }

    @Test func aFeedEndsOnceItsTokenIsRevokedByAPasswordChange() async throws {
        let auth = try await AuthServer(.sqlite, arguments: ["--feed-heartbeat", "0.2"])
        let user = try await auth.addUser("carol")
        let token = try await auth.token(user)
        let table = uniqueTable("feed")
        let feed = try FeedReader(port: auth.port, table: table, headers: ["X-ZUMO-AUTH": token])
        #expect(try await feed.open() == 200)

        try await AuthServer.users(["passwd", user, "--password-stdin"], database: auth.database, input: "new password\n")
        // Ended: the server closed the connection, so a read now finds the end, not a heartbeat.
        #expect(try await feed.isClosed(within: 10))
    }

    @Test func aFeedWithoutATokenIsRefusedWhenAccountsAreRequired() async throws {
        let auth = try await AuthServer(.sqlite, process: true)
        let feed = try FeedReader(port: auth.port, table: uniqueTable("feed"))
        #expect(try await feed.open() == 401)
    }

    @Test func aMalformedLastEventIDIsABadRequest() async throws {
        let server = try await SharedServers.shared.process(.sqlite)
        let feed = try FeedReader(port: server.port, table: uniqueTable("feed"), headers: ["Last-Event-ID": "yesterday"])
        #expect(try await feed.open() == 400)
    }

    @Test func withoutTheEventStreamAcceptTheChangesPathStillReadsAnItemCalledChanges() async throws {
        let server = try await SharedServers.shared.process(.sqlite)
        let table = uniqueTable("feed")
        let client = TableClient(server)
        _ = try await client.post("tables/\(table)", ["id": "changes", "text": "an ordinary id"])
        let read = try await client.get("tables/\(table)/changes")
        #expect(read.status == 200)
        #expect(read.object["text"] as? String == "an ordinary id")
    }

    @Test func theHeartbeatKeepsAnIdleFeedTalking() async throws {
        let server = try await ServerProcess.start(arguments: ["--database", try Backend.sqlite.databaseArgument(in: TempDir.make()), "--feed-heartbeat", "0.2"])
        let feed = try FeedReader(port: server.port, table: uniqueTable("feed"))
        _ = try await feed.open()
        let text = try await feed.rawText(for: 2)
        #expect(text.components(separatedBy: ": heartbeat").count >= 3)
    }

    @Test func aSubscriberThatStopsReadingNeverHoldsUpWritesOrOtherSubscribers() async throws {
        let server = try await ServerProcess.start(arguments: ["--database", try Backend.sqlite.databaseArgument(in: TempDir.make())])
        let table = uniqueTable("feed")
        let client = TableClient(server)
        _ = try await client.post("tables/\(table)", ["id": "seed"])
        let stalled = try FeedReader(port: server.port, table: table, receiveBuffer: 1_024)
        let reader = try FeedReader(port: server.port, table: table)
        _ = try await reader.open()
        let padding = String(repeating: "x", count: 200)
        let started = Date()
        for n in 0..<1_500 {
            let reply = try await client.post("tables/\(table)", ["id": "w\(n)", "text": padding])
            #expect(reply.status == 201)
        }
        // Held up, the writes would wait for a reader that never reads; the bound only ends such a
        // run. 1,500 writes took 66 s once beside other tests on 2 cores, so it is generous.
        #expect(Date().timeIntervalSince(started) < 180)
        let received = try await reader.drain(quiet: 2)
        #expect(received.count == 1_500)
        _ = stalled
    }

    @Test func theServerStopsPromptlyOnSIGTERMWithFeedsOpen() async throws {
        let server = try await ServerProcess.start(arguments: ["--database", try Backend.sqlite.databaseArgument(in: TempDir.make())])
        let feed = try FeedReader(port: server.port, table: uniqueTable("feed"))
        #expect(try await feed.open() == 200)
        let started = Date()
        let status = try await offPool { server.stop() }
        #expect(status == 0)
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func aWriteThroughOneServerProcessReachesAFeedOnAnotherSharingPostgreSQL() async throws {
        let shared = try await SharedServers.shared.process(.postgres)
        let other = try await ServerProcess.start(arguments: ["--database", try Backend.postgres.databaseArgument(in: TempDir.make())])
        defer { other.stop() }
        let table = uniqueTable("feed")
        _ = try await TableClient(shared).insertAll(table, [["id": "seed"]])
        let feed = try FeedReader(port: shared.port, table: table)
        _ = try await feed.open()

        _ = try await TableClient(other).post("tables/\(table)", ["id": "from-other"])
        _ = try await TableClient(other).patch("tables/\(table)/from-other", ["text": "changed"])
        // NOTIFY reaches this process a moment after commit, so the seed's own event may come first:
        // a feed is at least once, from about when it opened.
        var heard: [FeedReader.Event] = []
        while heard.count < 2, let event = try await feed.next(timeout: 15) {
            if Self.id(of: event) == "from-other" { heard.append(event) }
        }
        #expect(heard.count == 2)
        #expect(heard.compactMap(\.id) == heard.compactMap(\.id).sorted())
    }

    @Test func aTableMadeByAnotherProcessIsReadableOnceItsEventArrives() async throws {
        let shared = try await SharedServers.shared.process(.postgres)
        let other = try await ServerProcess.start(arguments: ["--database", try Backend.postgres.databaseArgument(in: TempDir.make())])
        defer { other.stop() }
        let table = uniqueTable("feed")
        // This process has looked at the table while it did not exist (and cached that)…
        #expect(try await TableClient(shared).get("tables/\(table)").array.isEmpty)
        let feed = try FeedReader(port: shared.port, table: table)
        _ = try await feed.open()
        // …then the other process makes it, with its first row.
        _ = try await TableClient(other).post("tables/\(table)", ["id": "first", "text": "made elsewhere"])
        #expect(Self.id(of: try #require(try await feed.next(timeout: 15))) == "first")
        #expect(try await TableClient(shared).get("tables/\(table)").array.first?["text"] as? String == "made elsewhere")
    }

    @Test func aColumnAddedByAnotherProcessIsReadableOnceItsEventArrives() async throws {
        let shared = try await SharedServers.shared.process(.postgres)
        let other = try await ServerProcess.start(arguments: ["--database", try Backend.postgres.databaseArgument(in: TempDir.make())])
        defer { other.stop() }
        let table = uniqueTable("feed")
        _ = try await TableClient(shared).insertAll(table, [["id": "a", "text": "x"]])
        #expect(try await TableClient(shared).get("tables/\(table)/a").object["text"] as? String == "x")
        let feed = try FeedReader(port: shared.port, table: table)
        _ = try await feed.open()
        _ = try await TableClient(other).patch("tables/\(table)/a", ["stars": 5])
        while let event = try await feed.next(timeout: 15), Self.id(of: event) != "a" {}
        #expect(try await TableClient(shared).get("tables/\(table)/a").object["stars"] as? Double == 5)
    }

    private static func id(of event: FeedReader.Event) -> String {
        guard let data = event.data.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return "" }
        return object["id"] as? String ?? ""
    }
}
