import OfflineSync
import Testing
import TodoKit
import TodoKitTestSupport
import TodoModel

/// The environment holds one client per capability; a test provides the ones it uses.
@Suite struct AppEnvironmentTests {
    @Test func aClientATestDidNotProvideFailsThatTestNamingTheCall() async {
        let environment = AppEnvironment.unimplemented()
        await withKnownIssue {
            let error = await #expect(throws: Unimplemented.self) { try await environment.items.add(QuickAdd(raw: "milk")) }
            #expect(error?.call == "ItemsClient.add")
        } matching: { issue in
            issue.comments.contains { $0.rawValue == "ItemsClient.add is not provided in this test" }
        }
    }

    @Test func theInMemoryEnvironmentsFakesShareOneMemory() async throws {
        let outside = InMemoryEnvironment(["milk"])
        try await outside.environment.items.add(QuickAdd(raw: "bread"))
        #expect(outside.localItems.map(\.text).sorted() == ["bread", "milk"])
        #expect(try await outside.environment.undo.undo() != nil)
        #expect(outside.localItems.map(\.text) == ["milk"])
    }

    @Test func aClientSetOnTheEnvironmentReplacesItsFake() async throws {
        var environment = InMemoryEnvironment(["milk"]).environment
        environment.sharing = .unavailable
        let error = await #expect(throws: SyncError.self) { try await environment.sharing.members("g") }
        #expect(error?.message == "Sharing is not available here")
    }
}
