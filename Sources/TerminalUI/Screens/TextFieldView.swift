import TodoKit

/// Draws a text field with its cursor cell in reverse video, scrolled to keep the cursor in view.
public enum TextFieldView {
    /// Draws `field` (its cursor's line, when it has several) in `width` columns at (x, y).
    public static func draw(_ field: TextField, into frame: inout Frame, x: Int, y: Int, width: Int) {
        let position = field.cursorPosition
        draw(line: Array(field.lines[position.line]), cursor: position.column, into: &frame, x: x, y: y, width: width)
    }

    /// Draws a multi-line field in up to `height` rows from (x, y), scrolled to keep the cursor's
    /// line in view; with `focused` false, no cursor. Answers the rows used.
    @discardableResult
    public static func drawLines(_ field: TextField, focused: Bool, into frame: inout Frame, x: Int, y: Int, width: Int, height: Int) -> Int {
        let lines = field.lines, position = field.cursorPosition
        let rows = max(1, min(lines.count, height))
        let first = focused ? max(0, position.line - rows + 1) : 0
        for row in 0..<rows {
            let index = first + row
            if focused, index == position.line {
                draw(line: Array(lines[index]), cursor: position.column, into: &frame, x: x, y: y + row, width: width)
            } else {
                frame.put(lines[index], x: x, y: y + row, style: .underline, maxWidth: width)
            }
        }
        return rows
    }

    /// Draws one line of characters with the cursor at `cursor`.
    private static func draw(line characters: [Character], cursor: Int, into frame: inout Frame, x: Int, y: Int, width: Int) {
        guard width > 1 else { return }
        var start = 0
        while DisplayWidth.of(String(characters[start..<cursor])) >= width - 1 { start += 1 }
        var column = x
        for (index, character) in characters.enumerated().dropFirst(start) {
            let w = DisplayWidth.of(character)
            guard column + w <= x + width else { break }
            frame.put(String(character), x: column, y: y, style: index == cursor ? .reverse : .underline)
            column += w
        }
        if cursor == characters.count, column < x + width { frame.put(" ", x: column, y: y, style: .reverse) }
    }
}
