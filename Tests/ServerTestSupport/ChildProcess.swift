import Foundation
import Synchronization

/// A child process started with posix_spawn and reaped with waitpid.
///
/// Foundation's `Process.waitUntilExit` sometimes misses a child's exit on Linux and then spins
/// forever on a thread of the shared test pool, so the tests never use it.
public final class ChildProcess: Sendable {
    /// The process id.
    public let pid: pid_t
    /// The arguments it was started with (without the executable).
    public let arguments: [String]
    /// Its standard output, when captured.
    public let standardOutput: FileHandle?
    /// Its standard error, when captured.
    public let standardError: FileHandle?
    /// The exit status once reaped; waitpid runs under this lock so the pid is reaped only once.
    private let status = Mutex<Int32?>(nil)
    private static let spawnLock = Mutex(())

    /// Starts `executable` with stdin from `inputFile` (default /dev/null); stdout and stderr
    /// are captured or discarded.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                captureOutput: Bool = false, captureError: Bool = false, inputFile: String? = nil) throws {
        self.arguments = arguments
        // One spawn at a time, so no child starts between a pipe's creation and its close-on-exec.
        let (pid, output, error) = try Self.spawnLock.withLock { _ in
            try Self.spawn(executable, arguments, environment: environment, captureOutput: captureOutput, captureError: captureError,
                           inputFile: inputFile)
        }
        self.pid = pid
        standardOutput = output >= 0 ? FileHandle(fileDescriptor: output, closeOnDealloc: true) : nil
        standardError = error >= 0 ? FileHandle(fileDescriptor: error, closeOnDealloc: true) : nil
    }

    /// Spawns the child; answers its pid and the read ends of the captured pipes (-1 when not captured).
    private static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                              captureOutput: Bool, captureError: Bool, inputFile: String?) throws -> (pid: pid_t, output: Int32, error: Int32) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputFile ?? "/dev/null", O_RDONLY, 0)
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        for (capture, fd) in [(captureOutput, Int32(1)), (captureError, Int32(2))] {
            if capture {
                var fds: [Int32] = [-1, -1]
                // Close-on-exec: a child spawned meanwhile by another test must not inherit the write end.
                guard pipe(&fds) == 0 else { throw ServerStartError(description: "pipe failed") }
                _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
                _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
                posix_spawn_file_actions_adddup2(&actions, fds[1], fd)
                posix_spawn_file_actions_addclose(&actions, fds[0])
                posix_spawn_file_actions_addclose(&actions, fds[1])
                if fd == 1 { outPipe = fds } else { errPipe = fds }
            } else {
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_WRONLY, 0)
            }
        }
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = spawnCleanly(&pid, executable, &actions, argv, envp)
        for fd in [outPipe[1], errPipe[1]] where fd >= 0 { close(fd) }
        guard result == 0 else {
            for fd in [outPipe[0], errPipe[0]] where fd >= 0 { close(fd) }
            throw ServerStartError(description: "cannot start \(executable): error \(result)")
        }
        return (pid, outPipe[0], errPipe[0])
    }

    /// Sends a signal.
    public func signal(_ signal: Int32) { if isRunning { kill(pid, signal) } }

    /// True until the process has exited (and been reaped).
    public var isRunning: Bool {
        status.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid { status = Self.reaped(raw, pid) }
            return status == nil
        }
    }

    /// Waits for the exit; answers the exit status (128 + signal number when killed by a signal).
    @discardableResult
    public func wait() -> Int32 {
        status.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            let decoded = Self.reaped(raw, pid)
            status = decoded
            return decoded
        }
    }

    /// The status of `pid`, just reaped: the system may give its pid to another process now, so
    /// the exit handler forgets it (`ChildProcesses`).
    private static func reaped(_ raw: Int32, _ pid: pid_t) -> Int32 {
        ChildProcesses.forget(pid)
        return decode(raw)
    }

    private static func decode(_ raw: Int32) -> Int32 {
        let signal = raw & 0x7F
        return signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
    }
}
