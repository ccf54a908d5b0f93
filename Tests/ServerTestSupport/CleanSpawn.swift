import Foundation

/// `posix_spawnp` for test children, with an empty signal mask and default actions for the
/// signals programs rely on. Test threads (Swift concurrency, dispatch) block most signals and a child
/// inherits that mask: a tmux server that never sees SIGCHLD or SIGTERM outlived `kill-server`
/// and kept its program running after every terminal test.
public func spawnCleanly(_ pid: inout pid_t, _ executable: String, _ actions: inout posix_spawn_file_actions_t,
                         _ argv: [UnsafeMutablePointer<CChar>?], _ envp: [UnsafeMutablePointer<CChar>?]) -> Int32 {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attributes, &mask)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGCHLD, SIGUSR1, SIGUSR2, SIGTTIN, SIGTTOU, SIGWINCH] {
        sigaddset(&defaults, signal)
    }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    return posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
}
