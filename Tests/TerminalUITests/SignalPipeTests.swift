import Foundation
import Testing
@testable import TerminalUI

/// The terminal loop's signals arrive as bytes on a pipe, from whichever thread takes them
/// (`SignalPipe`).
@Suite struct SignalPipeTests {
    /// As in the app, where every thread but the pipe's own blocks the loop's signals.
    @Test func aSignalSentToTheProcessWhileThisThreadBlocksItIsReadOnceFromThePipe() async throws {
        let readEnd = try SignalPipe.install([SIGUSR2])
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGUSR2)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        defer { pthread_sigmask(SIG_UNBLOCK, &set, nil) }
        kill(getpid(), SIGUSR2)
        var received: [Int32] = []
        let deadline = Date().addingTimeInterval(5)
        while received.isEmpty, Date() < deadline {
            received = SignalPipe.received(on: readEnd)
            if received.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(received == [SIGUSR2])
        #expect(SignalPipe.received(on: readEnd).isEmpty)
    }
}
