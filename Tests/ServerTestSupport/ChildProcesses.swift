import Foundation
import Synchronization

/// Server processes still running when the test process exits are stopped and waited for, never
/// orphaned; then the run's temporary folder goes (`TempDir`), which their databases were in.
public enum ChildProcesses {
    /// The pids of servers not yet stopped: a stopped server's pid is forgotten, since the
    /// system may give it to another process.
    private static let pids = Mutex<Set<pid_t>>([])
    private static let installed: Void = { atexit { ChildProcesses.stopAllThenRemoveTheRunsFolder() } }()

    /// Makes sure the exit handler is in place; `TempDir` calls it before its first folder.
    static func install() { _ = installed }

    /// Stops `pid` with the rest at exit, unless `forget` is called first.
    public static func track(_ pid: pid_t) {
        install()
        _ = pids.withLock { $0.insert(pid) }
    }

    /// The process has been reaped (`ChildProcess` says so): it is no longer this run's to stop.
    public static func forget(_ pid: pid_t) {
        _ = pids.withLock { $0.remove(pid) }
    }

    private static func stopAllThenRemoveTheRunsFolder() {
        var running = pids.withLock { $0 }
        for pid in running { kill(pid, SIGTERM) }
        // A server stops within milliseconds of SIGTERM; one that is stuck is killed after this.
        let deadline = Date().addingTimeInterval(5)
        while !running.isEmpty && Date() < deadline {
            running = running.filter { !reaped($0) }
            if !running.isEmpty { usleep(10_000) }
        }
        for pid in running {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        }
        TempDir.removeThisRunsFolder()
    }

    /// True once `pid` has exited and been reaped here or elsewhere (`ChildProcess.wait`).
    private static func reaped(_ pid: pid_t) -> Bool {
        var raw: Int32 = 0
        let result = waitpid(pid, &raw, WNOHANG)
        return result == pid || (result < 0 && errno == ECHILD)
    }
}
