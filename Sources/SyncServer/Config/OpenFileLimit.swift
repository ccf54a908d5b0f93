#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open files, which bounds its connections: every change feed holds one
/// socket for as long as it is open, so ten thousand feeds need more than the usual 1,024.
public enum OpenFileLimit {
    /// Raises the soft limit to the hard one (what the system lets this process have without
    /// privileges) and answers the limit now in force.
    @discardableResult
    public static func raise() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// Files the process keeps open besides its connections (database, logs, event loops), a
    /// generous guess for telling how many connections the limit leaves.
    public static let reserved = 64
}
