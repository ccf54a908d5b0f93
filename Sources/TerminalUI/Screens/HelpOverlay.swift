import TodoKit

/// Draws the help overlay from key tables.
public enum HelpOverlay {
    /// Draws the rows in a centred box.
    public static func draw(_ rows: [HelpRow], over frame: inout Frame) {
        let keyWidth = rows.map { DisplayWidth.of($0.keys) }.max() ?? 0
        let width = min(frame.width - 2, max(40, keyWidth + (rows.map { DisplayWidth.of($0.title) }.max() ?? 0) + 7))
        let height = min(frame.height - 2, rows.count + 4)
        let x = (frame.width - width) / 2
        let y = (frame.height - height) / 2
        Box.draw(into: &frame, x: x, y: y, width: width, height: height, title: "Keys")
        for (i, row) in rows.prefix(height - 4).enumerated() {
            frame.put(row.keys, x: x + 2, y: y + 2 + i, style: .bold)
            frame.put(row.title, x: x + 4 + keyWidth, y: y + 2 + i, maxWidth: width - keyWidth - 6)
        }
        frame.put("any key closes", x: x + width - 17, y: y + height - 1, style: .dim)
    }
}
