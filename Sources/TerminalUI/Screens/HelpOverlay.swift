import TodoKit

/// Draws the help overlay from key tables.
public enum HelpOverlay {
    /// Draws the rows in a centred box.
    public static func draw(_ rows: [HelpRow], over frame: inout Frame) {
        let keyWidth = rows.map { DisplayWidth.of($0.keys) }.max() ?? 0
        let width = min(frame.width - 2, max(40, keyWidth + (rows.map { DisplayWidth.of($0.title) }.max() ?? 0) + 7))
        // A blank line above and below the rows when the screen has room for them.
        let padding = rows.count + 4 <= frame.height - 2 ? 1 : 0
        let height = min(frame.height - 2, rows.count + 2 + 2 * padding)
        let x = (frame.width - width) / 2
        let y = (frame.height - height) / 2
        Box.draw(into: &frame, x: x, y: y, width: width, height: height, title: "Keys")
        for (i, row) in rows.prefix(height - 2 - 2 * padding).enumerated() {
            frame.put(row.keys, x: x + 2, y: y + 1 + padding + i, style: .bold)
            frame.put(row.title, x: x + 4 + keyWidth, y: y + 1 + padding + i, maxWidth: width - keyWidth - 6)
        }
        frame.put("any key closes", x: x + width - 17, y: y + height - 1, style: .dim)
    }
}
