import CNCurses
import TodoKit

/// Turns curses key codes and characters into `KeyEvent`s.
enum KeyDecoder {
    static func decode(kind: Int32, scalar: UInt32) -> KeyEvent? {
        switch Int(kind) {
        case TUI_KEY_UP: return .up
        case TUI_KEY_DOWN: return .down
        case TUI_KEY_LEFT: return .left
        case TUI_KEY_RIGHT: return .right
        case TUI_KEY_PAGE_UP: return .pageUp
        case TUI_KEY_PAGE_DOWN: return .pageDown
        case TUI_KEY_HOME: return .home
        case TUI_KEY_END: return .end
        case TUI_KEY_ENTER: return .enter
        case TUI_KEY_BACKSPACE: return .backspace
        case TUI_KEY_DELETE: return .delete
        case TUI_KEY_BACK_TAB: return .backTab
        case TUI_KEY_WORD_LEFT: return .wordLeft
        case TUI_KEY_WORD_RIGHT: return .wordRight
        case TUI_KEY_ALT_B: return .alt("b")
        case TUI_KEY_ALT_F: return .alt("f")
        case TUI_KEY_ALT_D: return .alt("d")
        case TUI_KEY_ALT_BACKSPACE: return .altBackspace
        case TUI_KEY_CHAR: return character(scalar)
        default: return nil
        }
    }

    static func character(_ value: UInt32) -> KeyEvent? {
        switch value {
        case 0x0D, 0x0A: return .enter
        case 0x09: return .tab
        case 0x1B: return .escape
        case 0x7F, 0x08: return .backspace
        case 0x01...0x1A: return .control(Character(Unicode.Scalar(value + 0x60)!))
        default:
            guard let scalar = Unicode.Scalar(value), value >= 0x20 else { return nil }
            return .character(Character(scalar))
        }
    }
}
