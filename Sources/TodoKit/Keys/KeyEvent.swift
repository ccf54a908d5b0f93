/// A key press, as the terminal layer reports it.
public enum KeyEvent: Sendable, Hashable {
    case character(Character)
    case control(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, tab, backTab, backspace, delete
    /// Alt (Meta) with a character: the terminal sends Esc, then the character.
    case alt(Character)
    /// Alt-Backspace (Esc, then DEL).
    case altBackspace
    /// Ctrl-← and Ctrl-→ (or Alt-←/→): a word left or right.
    case wordLeft, wordRight
}

extension KeyEvent {
    /// How the help overlay and hint bar spell the key.
    public var label: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let c): return String(c)
        case .control(let c): return "Ctrl-" + String(c).uppercased()
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .tab: return "Tab"
        case .backTab: return "Shift-Tab"
        case .backspace: return "Backspace"
        case .delete: return "Delete"
        case .alt(let c): return "Alt-" + String(c).uppercased()
        case .altBackspace: return "Alt-Backspace"
        case .wordLeft: return "Ctrl-←"
        case .wordRight: return "Ctrl-→"
        }
    }
}
