import Foundation
import OfflineSync
import Testing
import TodoKit
import TodoKitTestSupport
import TodoModel

/// A kept view in the full-screen list (#58): it stands in the views (sidebar, `v`, `]`) with a
/// live count, and shows the items its question finds.
@MainActor
@Suite struct SavedViewListTests {
    @Test func aKeptViewShowsItsMatchesAndItsCountFollowsWrites() async throws {
        let service = try makeService()
        _ = try await service.items.add(QuickAdd("Weed beds #garden !high", today: DueDate("2026-11-24")!))
        _ = try await service.items.add(QuickAdd("Call plumber", today: DueDate("2026-11-24")!))
        let view = try await service.views.add(named: "Garden", query: "#garden")
        let app = AppRuntime.started(service)
        app.send(.list(.resized(pageHeight: 10)))
        try await eventually("the view") { app.state.scopes.contains(.saved(view)) }
        try await eventually("its count") { app.state.scopeCounts[.saved(view)] == 1 }
        app.send(.lists(.chooseScope(.saved(view))))
        try await eventually("its items") { app.texts == ["Weed beds"] }
        _ = try await service.items.add(QuickAdd("Mow lawn #garden", today: DueDate("2026-11-24")!))
        try await eventually("counted") { app.state.scopeCounts[.saved(view)] == 2 }
        try await eventually("shown") { app.texts == ["Weed beds", "Mow lawn"] }
        // Removed (on another device, say), the screen goes back to All.
        try await service.views.remove(named: "garden")
        try await eventually("gone") { app.state.list.scope == .all && !app.state.scopes.contains(.saved(view)) }
    }
}
