import Foundation
@testable import SyncServer
import Testing

/// Heavy requests compute on the server's worker threads, a bounded number per account at once,
/// and stop at their deadline.
@Suite struct HeavyWorkTests {
    /// A gate that holds the work inside it until opened.
    private actor Gate {
        private var waiters: [CheckedContinuation<Void, Never>] = []
        private var open = false
        private(set) var entered = 0
        func enter() async {
            entered += 1
            if open { return }
            await withCheckedContinuation { waiters.append($0) }
        }
        func release() {
            open = true
            for waiter in waiters { waiter.resume() }
            waiters = []
        }
    }

    private static func onWorkerThread() -> Bool { WorkerThreads.isCurrentThread }

    private func overloaded(_ error: any Error) -> Bool {
        if case TableError.overloaded = error { return true }
        return false
    }

    @Test func workRunsOnTheWorkerThreadsNotTheCooperativePool() async throws {
        let work = HeavyWork(perAccount: 1, deadline: .seconds(60))
        #expect(try await work.run(account: "ann") { WorkerThreads.isCurrentThread })
        #expect(!Self.onWorkerThread())
    }

    @Test func anAccountPastItsLimitIsToldToComeBackWhileAnotherIsServed() async throws {
        let work = HeavyWork(perAccount: 1, deadline: .seconds(60))
        let gate = Gate()
        let held = Task { try await work.run(account: "ann") { await gate.enter() } }
        while await gate.entered == 0 { await Task.yield() }
        await #expect(throws: TableError.self) { try await work.run(account: "ann") { 1 } }
        #expect(try await work.run(account: "bob") { 2 } == 2)
        await gate.release()
        try await held.value
        #expect(try await work.run(account: "ann") { 3 } == 3)
    }

    @Test func theRefusalIs503WithRetryAfter() async throws {
        let work = HeavyWork(perAccount: 1, deadline: .seconds(60))
        let gate = Gate()
        let held = Task { try await work.run(account: "ann") { await gate.enter() } }
        while await gate.entered == 0 { await Task.yield() }
        do {
            _ = try await work.run(account: "ann") { 1 }
            Issue.record("admitted")
        } catch let error as TableError {
            #expect(error.status == 503)
            guard case .overloaded(_, let seconds) = error else { throw error }
            #expect(seconds > 0)
        }
        await gate.release()
        try await held.value
    }

    @Test func workPastItsDeadlineStops() async throws {
        let work = HeavyWork(perAccount: 1, deadline: .zero)
        do {
            try await work.run(account: "ann") { try RequestDeadline.check() }
            Issue.record("ran past its deadline")
        } catch {
            #expect(overloaded(error))
        }
    }

    @Test func workWithinItsDeadlineIsNotStopped() async throws {
        let work = HeavyWork(perAccount: 1, deadline: .seconds(60))
        #expect(try await work.run(account: "ann") { () throws -> Bool in
            try RequestDeadline.check()
            return RequestDeadline.isPast
        } == false)
    }
}
