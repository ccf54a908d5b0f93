import TodoKit

/// Draws the "Server Conflict" dialog on top of a frame.
public enum AlertDialog {
    /// Draws the dialog centred.
    public static func draw(_ dialog: ConflictDialogViewModel, over frame: inout Frame) {
        var lines: [String] = []
        for difference in dialog.prompt.differences {
            lines.append("\(difference.field):")
            lines.append("  Client value: \(difference.client)")
            lines.append("  Server value: \(difference.server)")
        }
        let buttons = ConflictDialogViewModel.buttons.map { "[ \($0.title) ]" }
        let buttonsWidth = buttons.reduce(0) { $0 + DisplayWidth.of($1) } + 2 * (buttons.count - 1)
        let contentWidth = max(buttonsWidth, lines.map(DisplayWidth.of).max() ?? 0, 30)
        let boxWidth = min(frame.width - 2, contentWidth + 4)
        let boxHeight = min(frame.height - 2, lines.count + 6)
        let x = (frame.width - boxWidth) / 2
        let y = (frame.height - boxHeight) / 2
        Box.draw(into: &frame, x: x, y: y, width: boxWidth, height: boxHeight, title: "Server Conflict")
        for (i, line) in lines.prefix(boxHeight - 6).enumerated() {
            frame.put(line, x: x + 2, y: y + 2 + i, maxWidth: boxWidth - 4)
        }
        var bx = x + (boxWidth - buttonsWidth) / 2
        let by = y + boxHeight - 2
        for (button, (choice, _)) in zip(buttons, ConflictDialogViewModel.buttons) {
            bx += frame.put(button, x: bx, y: by, style: choice == dialog.selected ? [.reverse, .bold] : .bold)
            bx += 2
        }
    }
}

/// A bordered box with a title.
public enum Box {
    /// Clears the area and draws a border.
    public static func draw(into frame: inout Frame, x: Int, y: Int, width: Int, height: Int, title: String) {
        guard width >= 4, height >= 3 else { return }
        frame.clear(x: x, y: y, width: width, height: height)
        frame.put("┌" + String(repeating: "─", count: width - 2) + "┐", x: x, y: y)
        for row in 1..<(height - 1) {
            frame.put("│", x: x, y: y + row)
            frame.put("│", x: x + width - 1, y: y + row)
        }
        frame.put("└" + String(repeating: "─", count: width - 2) + "┘", x: x, y: y + height - 1)
        frame.put(" \(title) ", x: x + 2, y: y, style: .bold, maxWidth: width - 4)
    }
}
