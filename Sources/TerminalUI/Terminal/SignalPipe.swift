import Foundation

/// Signals as bytes on a pipe, which a dispatch read source on the main queue reads: the terminal
/// loop's, and `todo watch`'s stop signals.
///
/// Why not dispatch's signal sources: on Linux they read a signalfd, which only sees signals that
/// stay blocked, while `dispatchMain()` parks the main thread in `sigsuspend` with every signal
/// unblocked. The kernel could then hand a signal to the main thread instead: curses' SIGWINCH
/// handler took the resize and the screen kept its old frame (`TerminalEndToEndTests`'
/// `resizeRedrawsAndTinyTerminalsGetAMessage` failed now and then), and a SIGTERM met its default
/// action, ending the process without restoring the terminal. A handler of our own runs on
/// whichever thread takes the signal, and only writes the signal's number to the pipe; a thread
/// of its own keeps the signals unblocked, so one is always there to take them whatever mask
/// `dispatchMain()` parks the main thread with.
public enum SignalPipe {
    /// The pipe's write end, for the handlers (set by `install` before it installs any).
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Installs a handler for each of `signals`; answers the read end of their pipe (non-blocking).
    /// Throws when the process may open no more files.
    public static func install(_ signals: [Int32]) throws -> Int32 {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SignalPipeError(reason: String(cString: strerror(errno))) }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)  // not inherited by the person's editor
        }
        writeEnd = ends[1]
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                // Only async-signal-safe calls here; errno is the interrupted code's.
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalPipe.writeEnd, &byte, 1)
                errno = saved
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
        Thread.detachNewThread {
            var set = sigset_t()
            sigemptyset(&set)
            for signal in signals { sigaddset(&set, signal) }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            while true { pause() }
        }
        return ends[0]
    }

    /// The signals that arrived since the last call, in order (a full pipe drops repeats: one
    /// SIGWINCH stands for many).
    public static func received(on readEnd: Int32) -> [Int32] {
        var signals: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            guard count > 0 else { return signals }
            signals += buffer[..<count].map { Int32($0) }
        }
    }
}

/// No pipe for the signals could be made.
public struct SignalPipeError: Error, CustomStringConvertible {
    let reason: String
    public var description: String { "cannot watch for signals: \(reason)" }
}
