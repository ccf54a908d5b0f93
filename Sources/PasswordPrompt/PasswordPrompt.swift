import Foundation

/// Asks for a password on the terminal with echo off (restored even when reading fails).
public enum PasswordPrompt {
    /// A password could not be read.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong, in one line.
        public var description: String

        /// A failure with a message.
        public init(description: String) { self.description = description }
    }

    /// Shows `prompt` on stderr and reads one line from the terminal without echo.
    public static func ask(_ prompt: String) throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            throw Failure(description: "standard input is not a terminal: pass --password-stdin and send the password on it")
        }
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = readLine(strippingNewline: true) else { throw Failure(description: "no password was typed") }
        return line
    }

    /// The first line of standard input (for `--password-stdin`).
    public static func readStandardInput() throws -> String {
        guard let line = readLine(strippingNewline: true) else { throw Failure(description: "no password on standard input") }
        return line
    }
}
