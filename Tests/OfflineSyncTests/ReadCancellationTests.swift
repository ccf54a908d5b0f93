import Dispatch
import Foundation
import ServerTestSupport
@testable import OfflineSync
import TableProtocol
import Testing

/// A live query's store read that nobody waits for any more stops, instead of walking on.
@Suite struct ReadCancellationTests {
    /// A local table of 2,000 items: reading them all takes SQLite many thousand steps.
    private func fixture() throws -> SyncFixture {
        let f = try SyncFixture(table: "todoitem", storePath: TempDir.make().appendingPathComponent("local.sqlite").path, serverURL: nil)
        try f.local.transaction { transaction in
            for n in 0..<2_000 { _ = try transaction.insert(todo("t\(n)", "item \(n)")) }
        }
        return f
    }

    /// A needle no item holds, too short for the text index: the read walks every row.
    private func walkEveryRow(_ f: SyncFixture) throws -> Int {
        try f.local.read(f.local.query.filter(Field("text").contains("zq"))).items.count
    }

    @Test func aReadNobodyCancelsRunsToItsEnd() async throws {
        let f = try fixture()
        let count = try await BlockingReadThread().run(.awaited) { try walkEveryRow(f) }
        #expect(count == 0)
        #expect(try await BlockingReadThread().run(.awaited) { try f.local.read(f.local.query).items.count } == 2_000)
    }

    @Test func aReadWhoseCancellationIsSetStopsWithAnInterrupt() throws {
        let f = try fixture()
        let cancellation = ReadCancellation()
        cancellation.cancel()
        #expect { try ReadCancellation.$current.withValue(cancellation) { try walkEveryRow(f) } } throws: {
            "\($0)".contains("interrupted")
        }
    }

    @Test func cancellingTheWaitingTaskInterruptsTheReadInFlight() async throws {
        let f = try fixture()
        let gate = DispatchSemaphore(value: 0)
        let waiting = Task { try await BlockingReadThread().run(.awaited) { gate.wait(); return try walkEveryRow(f) } }
        // The read is held at the gate until the task that waits for it is cancelled.
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        gate.signal()
        await #expect { try await waiting.value } throws: { "\($0)".contains("interrupted") }
        // The connection is left as it was: the next read is not interrupted.
        #expect(try f.local.read(f.local.query).items.count == 2_000)
    }
}
