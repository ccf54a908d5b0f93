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

    @Test func aRemovedMembersFeedEndsAtTheNextHeartbeat() async throws {
        let space = try await SharedSpace(.sqlite, bRole: "editor", arguments: ["--feed-heartbeat", "0.2"])
        let feed = try FeedReader(port: space.two.auth.port, table: "groceries", query: "space=\(space.id)", headers: space.b.headers)
        #expect(try await feed.open() == 200)
        #expect(try await space.a.send("DELETE", "spaces/\(space.id)/members/\(space.two.bName)").status == 204)
        #expect(try await feed.isClosed(within: 3))
    }

    @Test func aNonMemberCannotOpenASpacesFeed() async throws {
        let space = try await SharedSpace(.sqlite, bRole: nil, process: true)
        let feed = try FeedReader(port: space.two.auth.port, table: "groceries", query: "space=\(space.id)", headers: space.b.headers)
        #expect(try await feed.open() == 404)
    }
}
