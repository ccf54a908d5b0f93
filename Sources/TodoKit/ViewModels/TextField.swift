/// An editable line of text with a cursor, counted in characters (grapheme clusters).
public struct TextField: Sendable, Hashable {
    /// The characters.
    public private(set) var characters: [Character]
    /// The cursor position, 0...characters.count.
    public private(set) var cursor: Int

    /// Creates a field with the cursor at the end.
    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    /// The text.
    public var text: String { String(characters) }

    /// Applies an editing key; answers false when the key is not an editing key.
    @discardableResult
    public mutating func handle(_ key: KeyEvent) -> Bool {
        switch key {
        case .character(let c):
            characters.insert(c, at: cursor)
            cursor += 1
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .backspace:
            guard cursor > 0 else { return true }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete:
            guard cursor < characters.count else { return true }
            characters.remove(at: cursor)
        default:
            return false
        }
        return true
    }
}
