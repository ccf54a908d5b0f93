import TodoKit

/// Draws the help overlay from key tables, scrolled when it is taller than the screen.
public enum HelpOverlay {
    /// Draws the rows in a centred box, from row `scroll` on.
    public static func draw(_ rows: [HelpRow], scroll: Int = 0, over frame: inout Frame) {
        // Each section (rows after a heading, a row without keys) lines its titles up on its own.
        var section = 0
        let sections = rows.map { row in
            if row.keys.isEmpty { section += 1 }
            return section
        }
        var keyWidths: [Int: Int] = [:]
        for (row, section) in zip(rows, sections) { keyWidths[section] = max(keyWidths[section] ?? 0, DisplayWidth.of(row.keys)) }
        let widest = zip(rows, sections).map { row, section in (keyWidths[section] ?? 0) + DisplayWidth.of(row.title) }.max() ?? 0
        let width = min(frame.width - 2, max(40, widest + 7))
        // A blank line above and below the rows when the screen has room for them.
        let padding = rows.count + 4 <= frame.height - 2 ? 1 : 0
        let height = min(frame.height - 2, rows.count + 2 + 2 * padding)
        let visible = height - 2 - 2 * padding
        let first = min(max(0, scroll), max(0, rows.count - visible))
        let x = (frame.width - width) / 2
        let y = (frame.height - height) / 2
        Box.draw(into: &frame, x: x, y: y, width: width, height: height, title: "Keys")
        for (i, row) in rows.dropFirst(first).prefix(visible).enumerated() {
            frame.put(row.keys, x: x + 2, y: y + 1 + padding + i, style: .bold)
            // A row without keys is a heading spanning the box.
            let titleX = row.keys.isEmpty ? x + 2 : x + 4 + (keyWidths[sections[first + i]] ?? 0)
            frame.put(row.title, x: titleX, y: y + 1 + padding + i, style: row.keys.isEmpty ? .bold : [], maxWidth: x + width - 2 - titleX)
        }
        let more = first + visible < rows.count ? "↓ more · " : first > 0 ? "↑ more · " : ""
        let footer = more + "any key closes"
        frame.put(footer, x: x + width - DisplayWidth.of(footer) - 3, y: y + height - 1, style: .dim)
    }
}
