import Foundation
import TodoKit

/// Draws the conflict dialog on top of a frame: what happened, each field in question with what
/// it was, yours and the server's, then the buttons.
public enum ConflictDialog {
    /// Draws the dialog centred.
    public static func draw(_ dialog: ConflictDialogViewModel, over frame: inout Frame) {
        let lines = contentLines(dialog)
        let buttons = dialog.buttons.map { "[ \($0.title) ]" }
        let buttonsWidth = buttons.reduce(0) { $0 + DisplayWidth.of($1) } + 2 * (buttons.count - 1)
        let applyLine = dialog.prompt.offersApplyToAll ? "\(dialog.applyToAll ? "[x]" : "[ ]") apply to the rest of this sync (a)" : nil
        let contentWidth = max(buttonsWidth, lines.map(DisplayWidth.of).max() ?? 0, DisplayWidth.of(applyLine ?? ""), 30)
        let boxWidth = min(frame.width - 2, contentWidth + 4)
        let extra = applyLine == nil ? 0 : 1
        let boxHeight = min(frame.height - 2, lines.count + 6 + extra)
        let x = (frame.width - boxWidth) / 2
        let y = (frame.height - boxHeight) / 2
        Box.draw(into: &frame, x: x, y: y, width: boxWidth, height: boxHeight, title: dialog.title)
        for (i, line) in lines.prefix(boxHeight - 6 - extra).enumerated() {
            frame.put(line, x: x + 2, y: y + 2 + i, maxWidth: boxWidth - 4)
        }
        if let applyLine { frame.put(applyLine, x: x + 2, y: y + boxHeight - 3, maxWidth: boxWidth - 4) }
        var bx = x + (boxWidth - buttonsWidth) / 2
        let by = y + boxHeight - 2
        for (button, (choice, _)) in zip(buttons, dialog.buttons) {
            bx += frame.put(button, x: bx, y: by, style: choice == dialog.selected ? [.reverse, .bold] : .bold)
            bx += 2
        }
    }

    /// The explanation and, per field, its three values.
    static func contentLines(_ dialog: ConflictDialogViewModel) -> [String] {
        var lines = [dialog.explanation]
        let note = dialog.prompt.serverChangeNote(clock: StatusBar.clock)
        let changed = note.isEmpty ? "" : " (\(note))"
        for field in dialog.prompt.fields {
            lines.append("\(field.name):")
            lines.append("  was:      \(field.was ?? "(new on both sides)")")
            lines.append("  yours:    \(field.yours)")
            lines.append("  server's: \(field.servers)\(changed)")
        }
        return lines
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
