import Glibc
import SyncServer
import Testing

/// Every change feed holds a socket: the server takes the open files the system allows.
@Suite struct OpenFileLimitTests {
    @Test func theServerTakesEveryOpenFileTheSystemAllows() throws {
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let hard = limit.rlim_max
        // As a shell's usual 1,024 would leave it (when the hard limit allows more).
        var low = limit
        low.rlim_cur = min(1024, hard)
        #expect(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &low) == 0)
        let granted = OpenFileLimit.raise()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        #expect(limit.rlim_cur == hard)
        #expect(hard > rlim_t(Int.max) || granted == Int(hard))
    }
}
