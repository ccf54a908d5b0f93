import Foundation
import Testing
@testable import TerminalUI

/// The terminal loop's signals arrive as bytes on a pipe, from whichever thread takes them
/// (`SignalPipe`).
@Suite struct SignalPipeTests {
    /// As in the app, where every thread but the pipe's own blocks the loop's signals. Synchronous,
    /// so the mask is set and restored on one thread: an `await` between the two moved the test
    /// to another thread and left the first one blocking the signal for good.
    @Test func aSignalSentToTheProcessWhileThisThreadBlocksItIsReadOnceFromThePipe() throws {
        let readEnd = try SignalPipe.install([SIGUSR2])
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGUSR2)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        defer { pthread_sigmask(SIG_UNBLOCK, &set, nil) }
        kill(getpid(), SIGUSR2)
        var readable = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&readable, 1, 10_000) == 1, "the signal's byte reached the pipe")
        #expect(SignalPipe.received(on: readEnd) == [SIGUSR2])
        #expect(SignalPipe.received(on: readEnd).isEmpty)
    }
}
