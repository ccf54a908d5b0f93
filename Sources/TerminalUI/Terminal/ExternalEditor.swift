import Foundation
import Glibc
import TodoKit

/// Runs the person's own editor (`$VISUAL`, else `$EDITOR`, else `vi`) on a text in a temporary
/// file, with the terminal handed over: curses ends, keys stop being read, Ctrl-C belongs to the
/// editor; afterwards the screen is drawn again from scratch.
@MainActor
public final class ExternalEditor {
    private let terminal: NCursesTerminal
    /// Called before the editor starts and after it exits (the loop pauses its key source).
    var onHandOver: (Bool) -> Void = { _ in }
    /// True while the editor has the terminal.
    private(set) var isRunning = false

    /// An editor for the app on `terminal`.
    public init(terminal: NCursesTerminal) { self.terminal = terminal }

    /// The environment's `editExternally`: runs the editor on `text`, answers the text saved
    /// (nil when the editor exited with an error).
    public nonisolated var edit: @Sendable (String) async throws -> String? {
        { [weak self] text in
            guard let self else { return nil }
            return try await self.run(text)
        }
    }

    private func run(_ text: String) async throws -> String? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("todo-item-\(UUID().uuidString.prefix(8)).txt")
        try Data(text.utf8).write(to: file, options: .atomic)
        defer { try? FileManager.default.removeItem(at: file) }
        isRunning = true
        onHandOver(true)
        terminal.suspend()
        // Taken back however the editor ends, a failed start included.
        defer {
            terminal.resume()
            isRunning = false
            onHandOver(false)
        }
        let status = await Self.wait(for: try Self.spawn(file.path))
        guard status == 0 else { return nil }
        return try String(contentsOf: file, encoding: .utf8)
    }

    /// Starts `sh -c 'exec "${VISUAL:-${EDITOR:-vi}}" "$1"'` on the file, with default signal
    /// actions and an empty signal mask (the app blocks the signals its loop reads).
    private static func spawn(_ path: String) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        // The editor variable may hold arguments (`code -w`): the shell splits it.
        let arguments = ["/bin/sh", "-c", "exec ${VISUAL:-${EDITOR:-vi}} \"$1\"", "sh", path]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, "/bin/sh", nil, &attributes, &argv, environ)
        guard result == 0 else { throw TerminalError(description: "cannot start your editor (\(String(cString: strerror(result))))") }
        return pid
    }

    /// Waits for the child on a thread of its own (never a cooperative one); its exit status.
    private static func wait(for pid: pid_t) async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                // WIFEXITED / WEXITSTATUS by hand: the macros do not import.
                continuation.resume(returning: status & 0x7f == 0 ? (status >> 8) & 0xff : -1)
            }
        }
    }
}
