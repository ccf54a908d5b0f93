import Foundation
import OfflineSync
import Testing
@testable import TodoKit

/// The service's background work: results reach the UI loop, stale work is skipped.
@MainActor
@Suite struct TodoServiceTests {
    @Test func aCountSupersededBeforeItStartsIsSkipped() async throws {
        let service = try makeService()
        _ = try service.addNow("one")
        var results: [Result<Int, SyncError>] = []
        service.count(filterText: "", showCompleted: false, after: 0.2) { results.append($0) }
        service.count(filterText: "", showCompleted: false, after: 0.2) { results.append($0) }
        try await eventually("both answered") { results.count == 2 }
        guard case .failure(let error) = results[0] else { Issue.record("the first count ran"); return }
        #expect(error.code == .invalidAction)
        #expect(try results[1].get() == 1)
    }

    @Test func aSyncPushesEveryWriteAskedForBeforeIt() async throws {
        let service = try makeService(server: try await TodoTestServer.shared.get().baseURL)
        for n in 0..<100 { service.add("item \(n)") { _ in } }
        var synced: Result<Void, SyncError>?
        service.sync { synced = $0 }
        try await eventually("sync done", timeout: 60) { synced != nil }  // 100 sequential POSTs on a loaded CI machine
        try synced?.get()
        #expect(service.statusNow().pending == 0)
    }
}
