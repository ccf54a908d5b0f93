/// An editable line of text with a cursor, counted in characters (grapheme clusters), with the
/// editing keys of readline (`KeyTables.textField`).
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

    /// Applies an editing key (`KeyTables.textField`) or types a character; answers false for
    /// any other key.
    @discardableResult
    public mutating func handle(_ key: KeyEvent) -> Bool {
        if case .character(let c) = key {
            characters.insert(c, at: cursor)
            cursor += 1
            return true
        }
        guard let action = KeyTables.textField.action(for: key) else { return false }
        switch action {
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .wordLeft: cursor = wordStart(before: cursor)
        case .wordRight: cursor = wordEnd(after: cursor)
        case .start: cursor = 0
        case .end: cursor = characters.count
        case .deleteBack: if cursor > 0 { removeCharacters(cursor - 1..<cursor) }
        case .deleteForward: if cursor < characters.count { characters.remove(at: cursor) }
        case .deleteWordBack: removeCharacters(wordStart(before: cursor)..<cursor)
        case .deleteWordForward: characters.removeSubrange(cursor..<wordEnd(after: cursor))
        case .clearToStart: removeCharacters(0..<cursor)
        case .clearToEnd: characters.removeSubrange(cursor...)
        }
        return true
    }

    /// Removes a range that ends at the cursor, leaving the cursor where the range began.
    private mutating func removeCharacters(_ range: Range<Int>) {
        characters.removeSubrange(range)
        cursor = range.lowerBound
    }

    /// The start of the word before `index` (spaces before it skipped), as readline's backward-word.
    private func wordStart(before index: Int) -> Int {
        var i = index
        while i > 0, !Self.isWordCharacter(characters[i - 1]) { i -= 1 }
        while i > 0, Self.isWordCharacter(characters[i - 1]) { i -= 1 }
        return i
    }

    /// The end of the word after `index` (spaces after it skipped), as readline's forward-word.
    private func wordEnd(after index: Int) -> Int {
        var i = index
        while i < characters.count, !Self.isWordCharacter(characters[i]) { i += 1 }
        while i < characters.count, Self.isWordCharacter(characters[i]) { i += 1 }
        return i
    }

    private static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
}
