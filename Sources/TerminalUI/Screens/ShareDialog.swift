import TodoKit

/// Draws the share dialog: the account name to share with and the role, the members with theirs
/// (the selected one reversed), what happened last, and the dialog's keys.
public enum ShareDialog {
    /// Draws the dialog centred over `frame`.
    public static func draw(_ dialog: ShareDialogViewModel, hints: [Hint], over frame: inout Frame) {
        let width = min(frame.width - 2, 60)
        let listRows = max(1, min(dialog.members.count, frame.height - 11))
        let height = min(frame.height - 2, 8 + listRows)
        let x = (frame.width - width) / 2, y = (frame.height - height) / 2
        Box.draw(into: &frame, x: x, y: y, width: width, height: height, title: "Share “\(dialog.listName)”")
        frame.put("With:", x: x + 2, y: y + 2, style: .bold)
        let role = "as ◀ \(dialog.role.rawValue) ▶"
        let fieldWidth = width - 4 - 7 - DisplayWidth.of(role) - 1
        TextFieldView.draw(dialog.user, into: &frame, x: x + 9, y: y + 2, width: fieldWidth)
        frame.put(role, x: x + width - 2 - DisplayWidth.of(role), y: y + 2)
        frame.put("Members:", x: x + 2, y: y + 4, style: .dim)
        if dialog.members.isEmpty {
            frame.put(dialog.isBusy ? "Asking the server…" : "Only you so far", x: x + 4, y: y + 5, style: .dim, maxWidth: width - 6)
        }
        let first = max(0, (dialog.selected ?? 0) - listRows + 1)
        for (offset, member) in dialog.members.dropFirst(first).prefix(listRows).enumerated() {
            let row = y + 5 + offset
            frame.put("\(member.user)", x: x + 4, y: row, maxWidth: width - 18)
            frame.put(member.role.rawValue, x: x + width - 2 - 8, y: row, style: .dim)
            if first + offset == dialog.selected { frame.paint(.reverse, x: x + 3, y: row, width: width - 5) }
        }
        if let message = dialog.message {
            frame.put(message, x: x + 2, y: y + height - 3, style: .warning, maxWidth: width - 4)
        }
        HintBar.draw(hints, into: &frame, x: x + 2, y: y + height - 2, width: width - 4)
    }
}
