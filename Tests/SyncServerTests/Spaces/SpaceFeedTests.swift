import Foundation
import ServerTestSupport
import Testing

/// A space's change feed (`/tables/{t}/changes?space=ID`): every member hears every member's
/// writes, and a member removed hears nothing more.
@Suite struct SpaceFeedTests {
    @Test(arguments: Backend.allCases)
    func aMemberHearsTheOtherMembersWrites(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "viewer", process: true)
        let feed = try FeedReader(port: space.two.auth.port, table: "groceries", query: "space=\(space.id)", headers: space.b.headers)
        #expect(try await feed.open() == 200)
        #expect(try await space.send(space.a, "POST", "tables/groceries", body: ["id": "milk", "text": "milk"]).status == 201)
        let event = try await feed.next()
        #expect(event?.data.contains("\"milk\"") == true, "\(String(describing: event))")
    }

    @Test func aFeedOfASpaceHearsNothingOfTheMembersOwnWrites() async throws {
        let space = try await SharedSpace(.sqlite, bRole: "editor", process: true)
        let feed = try FeedReader(port: space.two.auth.port, table: "groceries", query: "space=\(space.id)", headers: space.b.headers)
        #expect(try await feed.open() == 200)
        #expect(try await space.a.post("tables/groceries", ["id": "personal", "text": "mine"]).status == 201)
        #expect(try await space.send(space.a, "POST", "tables/groceries", body: ["id": "shared", "text": "ours"]).status == 201)
        let event = try await feed.next()
        #expect(event?.data.contains("\"shared\"") == true, "\(String(describing: event))")
    }

    @Test func aRemovedMembersFeedEndsAtOnce() async throws {
        let space = try await SharedSpace(.sqlite, bRole: "editor", process: true)
        let feed = try FeedReader(port: space.two.auth.port, table: "groceries", query: "space=\(space.id)", headers: space.b.headers)
        #expect(try await feed.open() == 200)
        #expect(try await space.a.send("DELETE", "spaces/\(space.id)/members/\(space.two.bName)").status == 204)
        #expect(try await feed.isClosed(within: 2))  // the heartbeat is 15 s away
    }

    @Test(arguments: Backend.allCases)
    func aFeedOfASpaceOnAnotherProcessEndsAtItsNextHeartbeat(_ backend: Backend) async throws {
        // Membership is re-checked at every heartbeat: a removal through another server process
        // (PostgreSQL) ends the feed too. Here the removal goes through the same process's
        // database without its routes, as another process would.
        let space = try await SharedSpace(backend, bRole: "editor", arguments: ["--feed-heartbeat", "0.2"])
        let feed = try FeedReader(port: space.two.auth.port, table: "groceries", query: "space=\(space.id)", headers: space.b.headers)
        #expect(try await feed.open() == 200)
        _ = try await space.two.auth.sql(#"DELETE FROM "__members" WHERE "space" = '\#(space.id)' AND "role" <> 'owner'"#)
        #expect(try await feed.isClosed(within: 3))
    }

    @Test func aNonMemberCannotOpenASpacesFeed() async throws {
        let space = try await SharedSpace(.sqlite, bRole: nil, process: true)
        let feed = try FeedReader(port: space.two.auth.port, table: "groceries", query: "space=\(space.id)", headers: space.b.headers)
        #expect(try await feed.open() == 404)
    }
}

/// `GET /changes`: one connection carries every table of the account's own namespace and of
/// each of its spaces, and nothing of anyone else's.
@Suite struct CombinedFeedTests {
    @Test(arguments: Backend.allCases)
    func oneFeedCarriesEveryTableOfYourOwnAndYourSpaces(_ backend: Backend) async throws {
        let space = try await SharedSpace(backend, bRole: "editor", process: true)
        let feed = try FeedReader(port: space.two.auth.port, table: nil, headers: space.b.headers)
        #expect(try await feed.open() == 200)
        #expect(try await space.b.post("tables/notes", ["id": "own", "text": "b's own"]).status == 201)
        #expect(try await space.send(space.a, "POST", "tables/groceries", body: ["id": "shared", "text": "milk"]).status == 201)
        #expect(try await space.a.post("tables/groceries", ["id": "secret", "text": "a's own"]).status == 201)
        #expect(try await space.c.post("tables/groceries", ["id": "stranger", "text": "c's own"]).status == 201)
        let events = try await feed.drain(quiet: 1)
        let seen = events.compactMap { event -> [String]? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any] else { return nil }
            return [object["table"] as? String ?? "", object["space"] as? String ?? "own", object["id"] as? String ?? ""]
        }
        #expect(Set(seen) == [["notes", "own", "own"], ["groceries", space.id, "shared"]], "\(events)")
    }

    @Test func aViewersFeedNamesNoChangeOfATableOnlyWritersRead() async throws {
        // todo-server keeps a phone's refused edits (TodoLostEdit) for writers only.
        let space = try await SharedSpace(.sqlite, bRole: "viewer", process: true)
        let feed = try FeedReader(port: space.two.auth.port, table: nil, headers: space.b.headers)
        #expect(try await feed.open() == 200)
        #expect(try await space.send(space.a, "POST", "tables/TodoLostEdit", body: ["id": "refused", "text": "oat milk"]).status == 201)
        #expect(try await space.send(space.a, "POST", "tables/groceries", body: ["id": "shared", "text": "milk"]).status == 201)
        let event = try await feed.next()
        #expect(event?.data.contains("\"shared\"") == true, "\(String(describing: event))")
    }

    @Test func joiningASpaceEndsTheFeedAtOnceSoTheClientReconnectsWithIt() async throws {
        let space = try await SharedSpace(.sqlite, bRole: nil, process: true)
        let feed = try FeedReader(port: space.two.auth.port, table: nil, headers: space.b.headers)
        #expect(try await feed.open() == 200)
        #expect(try await space.a.send("PUT", "spaces/\(space.id)/members/\(space.two.bName)", body: ["role": "viewer"]).status == 200)
        #expect(try await feed.isClosed(within: 2))
    }

    @Test func aRemovalThroughAnotherPostgreSQLProcessEndsTheFeedAtOnce() async throws {
        let space = try await SharedSpace(.postgres, bRole: "editor", process: true)
        let other = try await ServerProcess.start(arguments: ["--database", space.two.auth.database, "--auth", "required"])
        defer { other.stop() }
        let feed = try FeedReader(port: other.port, table: nil, headers: space.b.headers)
        #expect(try await feed.open() == 200)
        #expect(try await space.a.send("DELETE", "spaces/\(space.id)/members/\(space.two.bName)").status == 204)
        #expect(try await feed.isClosed(within: 2))  // the heartbeat is 15 s away
    }

    @Test func aSpaceJoinedThroughAnotherProcessSaysSpacesAtTheNextHeartbeat() async throws {
        let space = try await SharedSpace(.sqlite, bRole: nil, arguments: ["--feed-heartbeat", "0.2"])
        let feed = try FeedReader(port: space.two.auth.port, table: nil, headers: space.b.headers)
        #expect(try await feed.open() == 200)
        // Written to the database beside the routes, as another server process would.
        let bId = try await space.two.auth.sql(#"SELECT "id" FROM "__users" WHERE "name" = '\#(space.two.bName)'"#).first ?? ""
        _ = try await space.two.auth.sql(#"INSERT INTO "__members" ("space", "account", "role", "addedAt") VALUES ('\#(space.id)', '\#(bId)', 'viewer', 'now')"#)
        let text = try await feed.rawText(for: 2)
        #expect(text.contains("event: spaces"), "\(text)")
    }

    @Test func theCombinedFeedCountsTowardsTheAccountsFeedLimit() async throws {
        let space = try await SharedSpace(.sqlite, bRole: "editor", arguments: ["--max-feeds-per-account", "1"])
        let first = try FeedReader(port: space.two.auth.port, table: nil, headers: space.b.headers)
        #expect(try await first.open() == 200)
        let second = try FeedReader(port: space.two.auth.port, table: "groceries", query: "space=\(space.id)", headers: space.b.headers)
        #expect(try await second.open() == 429)
    }
}
