import Foundation

/// Fresh temporary folders, all inside one folder of this test process's, which goes when the
/// process exits (after its servers, `ChildProcesses`): a run leaves nothing in the temporary
/// folder. A run that was killed cannot clean up, so the first folder a run makes also removes
/// the folders of runs whose process is gone, and kills the processes still naming a path in
/// them (the servers such a run left running on SQLite files there).
public enum TempDir {
    private static let prefix = "todo-tests-run-"

    private static let runsFolder: URL = {
        let base = FileManager.default.temporaryDirectory
        removeFoldersOfEndedRuns(named: prefix, in: base)
        ChildProcesses.install()
        return thisRunsFolder
    }()

    /// Its path, for the exit handler: reading `runsFolder` there would sweep when no folder was made.
    private static var thisRunsFolder: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)\(getpid())")
    }

    /// A new empty folder, removed when the test process exits.
    public static func make() throws -> URL {
        let url = runsFolder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Called at exit, once this run's servers have stopped.
    static func removeThisRunsFolder() {
        try? FileManager.default.removeItem(at: thisRunsFolder)
    }

    /// Removes the folders in `base` named `prefix` and a pid whose process is gone, with the
    /// processes still naming a path in them. Call it before making this process's own.
    public static func removeFoldersOfEndedRuns(named prefix: String, in base: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)) else { continue }
            // ESRCH: no such process. A pid the system gave to another process keeps its folder
            // until that one ends too; one with this process's pid was an earlier process's, since
            // this one makes its own only after this.
            if pid == getpid() || (kill(pid, 0) == -1 && errno == ESRCH) {
                let folder = base.appendingPathComponent(name)
                killProcesses(naming: folder.path)
                try? FileManager.default.removeItem(at: folder)
            }
        }
    }

    /// Kills the processes whose command line names a path in `folder`: the servers of a run that
    /// was killed, which outlive it holding their databases there.
    private static func killProcesses(naming folder: String) {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let commandLine = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
            if String(decoding: commandLine, as: UTF8.self).contains(folder + "/") { kill(pid, SIGKILL) }
        }
    }
}
