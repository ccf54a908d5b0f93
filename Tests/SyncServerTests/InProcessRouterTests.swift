import Foundation
import ServerTestSupport
import SyncServer
import Testing

/// `InProcessRouter`: the server's routes answering requests in this process, as fuzz-router
/// drives them.
@Suite struct InProcessRouterTests {
    private func withRouter(_ body: (InProcessRouter) async throws -> Void) async throws {
        let router = try await InProcessRouter.open(ServerConfiguration(database: try TempDir.make().appendingPathComponent("s.sqlite").path))
        do {
            try await body(router)
        } catch {
            await router.close()
            throw error
        }
        await router.close()
    }

    @Test func aRowInsertedInProcessIsReadBack() async throws {
        try await withRouter { router in
            let json = [("Content-Type", "application/json"), ("ZUMO-API-VERSION", "2.0.0")]
            let inserted = await router.respond(method: "POST", path: "/tables/items", headers: json, body: Array(#"{"id":"a","text":"milk"}"#.utf8))
            #expect(inserted?.status == 201)
            let read = await router.respond(method: "GET", path: "/tables/items/a", headers: json, body: [])
            #expect(read?.status == 200)
            let body = String(decoding: read?.body ?? [], as: UTF8.self)
            #expect(body.contains(#""text":"milk""#))
        }
    }

    @Test func aChangeFeedAnswersItsStatusWithoutWaitingForChanges() async throws {
        try await withRouter { router in
            let feed = await router.respond(method: "GET", path: "/changes", headers: [("Accept", "text/event-stream")], body: [])
            #expect(feed?.status == 200)
            #expect(feed?.headers.contains { $0.name.lowercased() == "content-type" && $0.value == "text/event-stream" } == true)
        }
    }

    @Test func aRequestNoHTTPParserWouldPassIsNotAnswered() async throws {
        try await withRouter { router in
            #expect(await router.respond(method: "GE T", path: "/health", headers: [], body: []) == nil)
            #expect(await router.respond(method: "GET", path: "/a b", headers: [], body: []) == nil)
            #expect(await router.respond(method: "GET", path: "/health", headers: [("X", "a\r\nb")], body: []) == nil)
        }
    }
}
