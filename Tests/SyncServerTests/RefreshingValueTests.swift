import Foundation
@testable import SyncServer
import Synchronization
import Testing

/// The copy that token and remembered-password checks read: `forget()` means the next caller
/// reads anew, whatever reads were under way when it was called.
@Suite struct RefreshingValueTests {
    /// A load that answers `answer` once `release` is opened, counting its calls.
    final class GatedLoad: Sendable {
        let answer = Mutex(0)
        let calls = Mutex(0)
        let started = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()

        func load() async -> Int {
            calls.withLock { $0 += 1 }
            let value = answer.withLock { $0 }
            started.continuation.yield()
            for await _ in release.stream { break }
            return value
        }
    }

    @Test func aReadThatBeganBeforeForgetIsNotKept() async throws {
        let gated = GatedLoad()
        let value = RefreshingValue(maxAge: 3600) { await gated.load() }
        let early = Task { try await value.value() }
        for await _ in gated.started.stream { break }
        // The change commits and is forgotten while the early read, which saw the old value, is out.
        gated.answer.withLock { $0 = 1 }
        value.forget()
        gated.release.continuation.yield()
        #expect(try await early.value == 0)
        gated.release.continuation.yield()
        #expect(try await value.value() == 1)
        #expect(gated.calls.withLock { $0 } == 2)
    }

    @Test func aFreshCopyIsKeptUntilForgotten() async throws {
        let gated = GatedLoad()
        gated.release.continuation.yield()
        let value = RefreshingValue(maxAge: 3600) { await gated.load() }
        #expect(try await value.value() == 0)
        #expect(try await value.value() == 0)
        #expect(gated.calls.withLock { $0 } == 1)
        gated.answer.withLock { $0 = 1 }
        value.forget()
        gated.release.continuation.yield()
        #expect(try await value.value() == 1)
    }
}
