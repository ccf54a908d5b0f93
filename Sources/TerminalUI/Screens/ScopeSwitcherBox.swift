import TodoKit

/// Draws the view switcher: a centred box of scopes with their counts, the cursor reversed.
public enum ScopeSwitcherBox {
    /// Draws it over a frame.
    public static func draw(_ switcher: ScopeSwitcherViewModel, over frame: inout Frame) {
        let width = min(frame.width - 2, 36)
        let visible = min(switcher.scopes.count, frame.height - 4)
        let height = visible + 2
        let x = (frame.width - width) / 2, y = (frame.height - height) / 2
        let first = min(max(0, switcher.selected - visible + 1), max(0, switcher.scopes.count - visible))
        Box.draw(into: &frame, x: x, y: y, width: width, height: height, title: "Views")
        for (offset, scope) in switcher.scopes.dropFirst(first).prefix(visible).enumerated() {
            let row = y + 1 + offset
            let count = switcher.counts[scope].map(CountText.grouped) ?? ""
            frame.put(" " + scope.title, x: x + 1, y: row, maxWidth: width - 4 - DisplayWidth.of(count))
            frame.put(count, x: x + width - 2 - DisplayWidth.of(count), y: row, style: .dim)
            if first + offset == switcher.selected { frame.paint(.reverse, x: x + 1, y: row, width: width - 2) }
        }
    }
}
