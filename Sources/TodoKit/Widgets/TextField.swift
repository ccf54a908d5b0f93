/// An editable text with a cursor, counted in characters (grapheme clusters), with the editing
/// keys of readline (`KeyTables.textField`). One line, unless made `multiline` (the editor's
/// notes): then Enter starts a new line, ↑/↓ move between lines, and Home, End, Ctrl-U and
/// Ctrl-K work on the cursor's line.
public struct TextField: Sendable, Hashable {
    /// The characters (with "\n" between lines when multiline).
    public private(set) var characters: [Character]
    /// The cursor position, 0...characters.count.
    public private(set) var cursor: Int
    /// Whether Enter starts a new line.
    public let multiline: Bool

    /// Creates a field with the cursor at the end.
    public init(_ text: String = "", multiline: Bool = false) {
        characters = Array(text)
        cursor = characters.count
        self.multiline = multiline
    }

    /// The text.
    public var text: String { String(characters) }

    /// The lines (one for a single-line field).
    public var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// The cursor's line (from 0) and its column in characters.
    public var cursorPosition: (line: Int, column: Int) {
        let before = characters[..<cursor]
        let line = before.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        return (line, cursor - lineStart(at: cursor))
    }

    /// Applies an editing key (`KeyTables.textField`) or types a character; answers false for
    /// any other key, and for the line keys of a single-line field.
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
        case .start: cursor = lineStart(at: cursor)
        case .end: cursor = lineEnd(at: cursor)
        case .deleteBack: if cursor > 0 { removeCharacters(cursor - 1..<cursor) }
        case .deleteForward: if cursor < characters.count { characters.remove(at: cursor) }
        case .deleteWordBack: removeCharacters(wordStart(before: cursor)..<cursor)
        case .deleteWordForward: characters.removeSubrange(cursor..<wordEnd(after: cursor))
        case .clearToStart: removeCharacters(lineStart(at: cursor)..<cursor)
        case .clearToEnd: characters.removeSubrange(cursor..<lineEnd(at: cursor))
        case .newLine, .lineUp, .lineDown:
            guard multiline else { return false }
            if action == .newLine {
                characters.insert("\n", at: cursor)
                cursor += 1
            } else {
                moveLine(down: action == .lineDown)
            }
        }
        return true
    }

    /// Moves the cursor to the line above or below, at the same column or that line's end.
    private mutating func moveLine(down: Bool) {
        let column = cursor - lineStart(at: cursor)
        let target: Int
        if down {
            let end = lineEnd(at: cursor)
            guard end < characters.count else { cursor = end; return }
            target = end + 1
        } else {
            let start = lineStart(at: cursor)
            guard start > 0 else { cursor = 0; return }
            target = lineStart(at: start - 1)
        }
        cursor = min(target + column, lineEnd(at: target))
    }

    /// Where the line holding `index` starts (0 for a single-line field).
    private func lineStart(at index: Int) -> Int {
        guard multiline else { return 0 }
        var i = index
        while i > 0, characters[i - 1] != "\n" { i -= 1 }
        return i
    }

    /// Where the line holding `index` ends, before its "\n" (the end for a single-line field).
    private func lineEnd(at index: Int) -> Int {
        guard multiline else { return characters.count }
        var i = index
        while i < characters.count, characters[i] != "\n" { i += 1 }
        return i
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
