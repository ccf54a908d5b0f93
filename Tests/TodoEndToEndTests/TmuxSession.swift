import Foundation
import ServerTestSupport

/// A real terminal: a detached tmux session running a command, driven with send-keys and read
/// with capture-pane.
final class TmuxSession: @unchecked Sendable {
    let name: String
    private let socket: String

    /// Starts `command` in a 100×30 session. TERM is left to tmux: its key sequences must match
    /// the terminfo entry the program reads.
    init(command: [String], environment: [String: String], width: Int = 100, height: Int = 30) throws {
        name = "todo-e2e-\(UUID().uuidString.prefix(8))"
        socket = "todo-e2e-\(name)"
        let env = environment.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        let shell = "env \(env) " + command.map(Self.quote).joined(separator: " ")
        try Self.tmux(socket, ["new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", shell])
        try Self.tmux(socket, ["set-option", "-t", name, "remain-on-exit", "on"])
    }

    /// Types keys: tmux key names ("Enter", "Up", "C-r", "Escape") or literal text with `literal`.
    func send(_ keys: String..., literal: Bool = false) throws {
        try Self.tmux(socket, ["send-keys", "-t", name] + (literal ? ["-l"] : []) + keys)
    }

    /// Types literal text.
    func type(_ text: String) throws { try send(text, literal: true) }

    /// The screen's text.
    func screen() throws -> String { try Self.tmux(socket, ["capture-pane", "-p", "-t", name]) }

    /// Waits until the screen contains `text`; throws with the screen when it does not.
    @discardableResult
    func waitFor(_ text: String, timeout: Double = 20) async throws -> String {
        try await waitUntil("“\(text)”", timeout: timeout) { $0.contains(text) }
    }

    /// Waits until the screen satisfies a condition.
    @discardableResult
    /// Polls with `Task.sleep`, never blocking a thread of the shared test pool.
    func waitUntil(_ what: String, timeout: Double = 20, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try screen()
            if condition(last) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ServerStartError(description: "timed out waiting for \(what); \(diagnosis()); screen was:\n\(last)")
    }

    /// A width at which the status bar shows its pending count beside the longest notice (an
    /// undo's), as `pushPendingChanges` needs.
    static let wideEnoughForNotices = 240

    /// Pushes the changes made so far and waits until the server has them: presses `r` once the
    /// status bar counts them pending with no sync running (`r` does nothing during a sync), then
    /// waits until nothing is pending. (A wait for "synced" or "0 changes pending" alone can match
    /// the bar as it was before the change was counted, and the test then read the server before
    /// the push.)
    func pushPendingChanges(timeout: Double = 20) async throws {
        try await waitUntil("a change pending, no sync running", timeout: timeout) { (Self.pendingCount(on: $0) ?? 0) > 0 && Self.isIdle($0) }
        try send("r")
        try await waitUntil("every change pushed", timeout: timeout, Self.isSettled)
    }

    /// True when the status bar shows nothing pending and no sync running.
    static func isSettled(_ screen: String) -> Bool { pendingCount(on: screen) == 0 && isIdle(screen) }

    /// True when the status bar shows no sync running: neither "syncing" nor a pull's "pulling N / M".
    /// A sync's rows show before it ends, and an `r` pressed before then is dropped.
    static func isIdle(_ screen: String) -> Bool { !screen.contains("syncing") && !screen.contains("pulling") }

    /// The status bar's "N changes pending", when the screen shows it.
    static func pendingCount(on screen: String) -> Int? {
        guard let match = screen.firstMatch(of: /(\d+) changes? pending/) else { return nil }
        return Int(match.1)
    }

    /// The pane's process and its state, for a timeout's message (a blank screen says little).
    func diagnosis() -> String {
        let pane = (try? Self.tmux(socket, ["display-message", "-p", "-t", name, "#{pane_dead} #{pane_pid} #{pane_dead_status}"])) ?? "?"
        let parts = pane.split(separator: " ")
        var text = "pane dead/pid/status: \(pane.trimmingCharacters(in: .whitespacesAndNewlines))"
        if parts.count > 1, let stat = try? String(contentsOfFile: "/proc/\(parts[1])/stat", encoding: .utf8) {
            text += "; /proc stat: \(stat.prefix(80))"
            if let wchan = try? String(contentsOfFile: "/proc/\(parts[1])/wchan", encoding: .utf8) { text += "; wchan: \(wchan)" }
        }
        return text
    }

    /// Resizes the window (the program gets SIGWINCH).
    func resize(width: Int, height: Int) throws {
        try Self.tmux(socket, ["resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    /// True while the program runs.
    var isRunning: Bool {
        ((try? Self.tmux(socket, ["display-message", "-p", "-t", name, "#{pane_dead}"])) ?? "1").trimmingCharacters(in: .whitespacesAndNewlines) == "0"
    }

    func kill() { _ = try? Self.tmux(socket, ["kill-server"]) }

    deinit { kill() }

    /// Runs tmux with posix_spawn and waitpid (Foundation's Process can miss the exit of the
    /// client that forks the tmux server). Only capture commands get a pipe for stdout.
    @discardableResult
    static func tmux(_ socket: String, _ args: [String]) throws -> String {
        let argv = ["tmux", "-L", socket] + args
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var fds: [Int32] = [-1, -1]
        let captures = ["capture-pane", "display-message"].contains(args.first ?? "")
        if captures {
            guard pipe(&fds) == 0 else { throw ServerStartError(description: "pipe failed") }
                _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
                _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_addclose(&actions, fds[0])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        let spawned = spawnCleanly(&pid, "tmux", &actions, cArgs, Array(UnsafeBufferPointer(start: environ, count: environCount())))
        if captures { close(fds[1]) }
        guard spawned == 0 else { throw ServerStartError(description: "cannot run tmux (is it installed?)") }
        var output = Data()
        if captures {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = read(fds[0], &buffer, buffer.count)
                if n <= 0 { break }
                output.append(buffer, count: n)
            }
            close(fds[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { throw ServerStartError(description: "tmux \(args.first ?? "") failed (status \(status))") }
        return String(decoding: output, as: UTF8.self)
    }

    /// The entries of `environ`, with its terminating nil.
    private static func environCount() -> Int {
        var count = 0
        while environ[count] != nil { count += 1 }
        return count + 1
    }

    static func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}

/// Runs the `todo` binary headless and returns (status, stdout, stderr).
enum TodoCLI {
    /// Data and config folders of a test's "home", and a time zone where it is midday now
    /// (`middayZone`).
    static func environment(home: URL) -> [String: String] {
        ["XDG_DATA_HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "TZ": middayZone]
    }

    /// A zone where the run started near noon: "today" in one `todo` process is "today" in the
    /// next, as a test that adds `due:today` and then opens Today expects, at whatever hour the
    /// suite runs (at local midnight the two straddled a day and the test failed).
    /// The wall time `minutes` from now where `todo` runs (`middayZone`), as `--remind` takes it.
    static func wallTime(minutes: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: middayZone)!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: Date().addingTimeInterval(Double(minutes) * 60))
        return String(format: "%04d-%02d-%02dT%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!)
    }

    static let middayZone: String = {
        let hour = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour ?? 12
        let ahead = 12 - hour  // hours ahead of UTC, -11 … 12; Etc/GMT names them with the sign turned
        return ahead == 0 ? "Etc/GMT" : "Etc/GMT" + (ahead > 0 ? "-" : "+") + String(abs(ahead))
    }()

    static var binary: String { ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("todo").path }

    /// Runs `todo` with its data and config under `home` (never the real ones) and `input` on stdin.
    @discardableResult
    static func run(_ args: [String], home: URL, input: String? = nil, environment extra: [String: String] = [:]) async throws -> (status: Int32, out: String, err: String) {
        try await offPool { try runBlocking(args, home: home, input: input, environment: extra) }
    }

    private static func runBlocking(_ args: [String], home: URL, input: String?, environment extra: [String: String]) throws -> (status: Int32, out: String, err: String) {
        var inputFile: String?
        if let input {
            inputFile = home.appendingPathComponent("stdin-\(UUID().uuidString)").path
            try Data(input.utf8).write(to: URL(fileURLWithPath: inputFile!))
        }
        let child = try ChildProcess(binary, args, environment: extra.merging(environment(home: home)) { $1 },
                                     captureOutput: true, captureError: true, inputFile: inputFile)
        let o = child.standardOutput!.readDataToEndOfFile()
        let e = child.standardError!.readDataToEndOfFile()
        return (child.wait(), String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}

/// A free loopback port for a server that starts later, below the kernel's ephemeral range:
/// a port the kernel picked (`bind` to port 0) is handed out again to the next server any test
/// starts with `--port 0`, which took it before ours started now and then.
func freePort() throws -> Int {
    let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8))?
        .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    let ephemeralStart = range?.first ?? 32768
    for _ in 0..<200 {
        let port = Int.random(in: max(1024, ephemeralStart - 12_000)..<max(1025, ephemeralStart))
        if canBind(port) { return port }
    }
    throw ServerStartError(description: "no free loopback port below \(ephemeralStart)")
}

/// True when nothing listens on the loopback port (a bind succeeds).
private func canBind(_ port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    let length = socklen_t(MemoryLayout<sockaddr_in>.size)
    return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } } == 0
}
