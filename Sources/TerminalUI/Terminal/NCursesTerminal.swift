import CNCurses
import Foundation
import TodoKit

/// The ncurses screen: copies a `Frame` to the terminal and reads keys. Nothing else touches curses.
@MainActor
public final class NCursesTerminal {
    private var previous: Frame?
    private(set) var isOpen = false

    /// Starts curses, with colours unless `colors` is false or NO_COLOR is set.
    public init(colors: Bool = true) throws {
        let noColor = !colors || !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        guard tui_init(noColor ? 0 : 1) == 0 else { throw TerminalError(description: "cannot start the terminal (is stdout a terminal?)") }
        isOpen = true
    }

    /// The terminal's size.
    public var size: (width: Int, height: Int) {
        var rows: Int32 = 0
        var cols: Int32 = 0
        tui_size(&rows, &cols)
        return (Int(cols), Int(rows))
    }

    /// Re-reads the size after SIGWINCH (the signal source consumed it, so curses did not).
    public func updateSize() {
        tui_update_size()
        previous = nil
    }

    /// Draws a frame, row by row, rewriting only rows that changed.
    public func draw(_ frame: Frame) {
        if previous?.width != frame.width || previous?.height != frame.height {
            tui_erase()
            previous = nil
        }
        for y in 0..<frame.height {
            if let previous, (0..<frame.width).allSatisfy({ previous[$0, y] == frame[$0, y] }) { continue }
            var x = 0
            while x < frame.width {
                let style = frame[x, y].style
                var run = ""
                let start = x
                while x < frame.width, frame[x, y].style == style {
                    run += frame[x, y].text
                    x += 1
                }
                tui_put(Int32(y), Int32(start), run, Int32(style.rawValue))
            }
        }
        tui_refresh()
        previous = frame
    }

    /// Every key waiting on stdin.
    public func readKeys() -> [KeyEvent] {
        var keys: [KeyEvent] = []
        var scalar: UInt32 = 0
        while true {
            let kind = tui_read_key(&scalar)
            if kind == Int32(TUI_KEY_NONE) { break }
            if kind == Int32(TUI_KEY_RESIZE) { continue }
            if let key = KeyDecoder.decode(kind: kind, scalar: scalar) { keys.append(key) }
        }
        return keys
    }

    /// Hands the terminal to another program (curses ends; `resume()` takes it back).
    func suspend() { tui_end() }

    /// Takes the terminal back after `suspend()`: the next frame is drawn whole.
    func resume() {
        tui_update_size()
        tui_erase()
        tui_refresh()
        previous = nil
    }

    /// Restores the terminal (idempotent).
    public func close() {
        guard isOpen else { return }
        isOpen = false
        tui_end()
    }
}

/// The terminal could not be used.
public struct TerminalError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
}
