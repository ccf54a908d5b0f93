import OfflineSync
import Testing
import TodoKit
import TodoKitTestSupport
import TodoModel

/// The environment finds each capability's client by its type.
@Suite struct AppEnvironmentTests {
    @Test func aCapabilityNobodyProvidesAnswersWithItsUnavailableClient() async throws {
        let environment = AppEnvironment { _ in nil }
        let error = await #expect(throws: SyncError.self) { try await environment.items.add(QuickAdd(raw: "milk")) }
        #expect(error?.message == "Changing items is not available here")
        #expect(try await environment.items.item("0") == nil)
        #expect(await environment.sync.pendingCount() == 0)
    }

    @Test func theInMemoryEnvironmentProvidesEveryCapabilitysFake() async throws {
        let outside = InMemoryEnvironment(["milk"])
        try await outside.environment.items.add(QuickAdd(raw: "bread"))
        #expect(outside.localItems.map(\.text).sorted() == ["bread", "milk"])
        #expect(try await outside.environment.undo.undo() != nil)
        #expect(outside.localItems.map(\.text) == ["milk"])
    }

    @Test func aClientSetOnTheEnvironmentReplacesTheProvidersOne() async {
        var environment = InMemoryEnvironment(["milk"]).environment
        environment.items = .unavailable
        let error = await #expect(throws: SyncError.self) { try await environment.items.add(QuickAdd(raw: "bread")) }
        #expect(error?.message == "Changing items is not available here")
    }
}
