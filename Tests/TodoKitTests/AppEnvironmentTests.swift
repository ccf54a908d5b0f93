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

    /// Every capability's client; a new one belongs here.
    static let clients: [any CapabilityClient.Type] = [ListViewClient.self, ListsClient.self, ItemsClient.self, UndoClient.self, ConflictsClient.self,
                                                       ServerSyncClient.self, SignInClient.self, SharingClient.self, ExportClient.self]

    @Test func everyClientHasALiveImplementationTheLiveEnvironmentFinds() {
        for client in Self.clients { #expect(client is any LiveCapabilityClient.Type, "\(client) has no live implementation") }
    }

    @Test func everyClientHasAFakeTheInMemoryEnvironmentFinds() {
        for client in Self.clients { #expect(client is any InMemoryCapabilityClient.Type, "\(client) has no fake") }
    }

    @Test func theInMemoryEnvironmentsFakesShareOneMemory() async throws {
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

/// Each capability's state in the app, one value per type.
@Suite struct CapabilityStatesTests {
    @Test func aStateNeverSetIsItsInitialValue() {
        #expect(CapabilityStates()[SharingState.self] == SharingState())
    }

    @Test func aStateSetBackToItsInitialValueIsAsIfNeverSet() {
        var states = CapabilityStates()
        states[SharingState.self].byList = ["g": ListEntry(list: TodoList(id: "g", name: "Groceries"), space: nil, owner: "ann", role: .owner,
                                                          members: 1, displayName: "Groceries")]
        #expect(states != CapabilityStates())
        states[SharingState.self] = SharingState()
        #expect(states == CapabilityStates())
    }
}
