import Foundation

/// Asks for a password on the terminal with echo off (restored even when reading fails).
enum PasswordPrompt {
    static func ask(_ prompt: String) throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            throw PasswordInputError(description: "standard input is not a terminal: pass --password-stdin and send the password on it")
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
        guard let line = readLine(strippingNewline: true) else { throw PasswordInputError(description: "no password was typed") }
        return line
    }
}
