import TodoKit

/// Draws a text field with its cursor cell in reverse video, scrolled to keep the cursor in view.
public enum TextFieldView {
    /// Draws `field` in `width` columns at (x, y).
    public static func draw(_ field: TextField, into frame: inout Frame, x: Int, y: Int, width: Int) {
        guard width > 1 else { return }
        var start = 0
        while DisplayWidth.of(String(field.characters[start..<field.cursor])) >= width - 1 { start += 1 }
        var column = x
        for (index, character) in field.characters.enumerated().dropFirst(start) {
            let w = DisplayWidth.of(character)
            guard column + w <= x + width else { break }
            frame.put(String(character), x: column, y: y, style: index == field.cursor ? .reverse : .underline)
            column += w
        }
        if field.cursor == field.characters.count, column < x + width { frame.put(" ", x: column, y: y, style: .reverse) }
    }
}
