import TodoKit
import TodoModel

/// Draws the "Todo Item" editor: one row per field, the one with the focus bold; text fields
/// show a cursor when focused, choice fields ◀ their value ▶; the notes take the rows left.
public enum EditorScreen {
    /// Renders the editor, the status bar and the hints.
    public static func render(_ editor: TodoEditorViewModel, status: SyncStatus, hints: [Hint], width: Int, height: Int) -> Frame {
        var frame = Frame(width: width, height: height)
        frame.clear(x: 0, y: 0, width: width, height: 1, style: [.reverse, .accent])
        frame.put(" Todo Item", x: 0, y: 0, style: [.reverse, .bold, .accent])
        if let who = editor.lastChangedBy {
            let note = "last changed by \(who) "
            if DisplayWidth.of(note) < width - 12 { frame.put(note, x: width - DisplayWidth.of(note), y: 0, style: [.reverse, .accent]) }
        }
        // Every field keeps a row above the status bar on the smallest terminal (10 rows).
        let top = height >= 14 ? 2 : 1
        let labelWidth = 11
        // Where a row per field would leave the notes none, the start shares the due date's row.
        let shared = height - 2 - top < TodoEditorViewModel.Focus.allCases.count
        let rows = TodoEditorViewModel.Focus.allCases.count - (shared ? 1 : 0)
        let notesRows = max(1, height - 2 - (top + rows - 1) - (editor.notice == nil ? 0 : 2))
        var y = top
        for focus in TodoEditorViewModel.Focus.allCases {
            let beside = shared && focus == .start
            if beside { y -= 1 }
            guard y < height - 2 else { break }
            let focused = editor.focus == focus
            let left = beside ? width / 2 : 2
            frame.put(label(focus), x: left, y: y, style: focused ? .bold : [])
            let x = left + (beside ? 7 : labelWidth), fieldWidth = beside ? width - x - 2 : (shared && focus == .due ? width / 2 - x - 1 : width - x - 2)
            if focus == .notes {
                // Notes take the rows left above the notice, scrolled to the cursor's line.
                y += TextFieldView.drawLines(editor.notes, focused: focused, into: &frame, x: x, y: y, width: fieldWidth,
                                             height: min(notesRows, height - 2 - y))
            } else if let field = textField(focus, of: editor) {
                if focused {
                    TextFieldView.draw(field, into: &frame, x: x, y: y, width: fieldWidth)
                } else {
                    frame.put(field.text, x: x, y: y, style: .underline, maxWidth: fieldWidth)
                }
                y += 1
            } else {
                frame.put("◀ \(choice(focus, of: editor)) ▶", x: x, y: y, style: focused ? .reverse : [], maxWidth: fieldWidth)
                y += 1
            }
        }
        let noticeY = y + 1
        if let notice = editor.notice, noticeY < height - 2 { frame.put(notice, x: 2, y: noticeY, style: .warning, maxWidth: width - 4) }
        StatusBar.draw(status, into: &frame, y: height - 2)
        HintBar.draw(hints, into: &frame, y: height - 1)
        return frame
    }

    private static func label(_ focus: TodoEditorViewModel.Focus) -> String {
        switch focus {
        case .text: return "Text:"
        case .complete: return "Complete:"
        case .due: return "Due:"
        case .start: return "Start:"
        case .priority: return "Priority:"
        case .tags: return "Tags:"
        case .list: return "List:"
        case .notes: return "Notes:"
        }
    }

    private static func textField(_ focus: TodoEditorViewModel.Focus, of editor: TodoEditorViewModel) -> TextField? {
        switch focus {
        case .text: return editor.text
        case .due: return editor.due
        case .start: return editor.start
        case .tags: return editor.tags
        case .complete, .priority, .list, .notes: return nil
        }
    }

    private static func choice(_ focus: TodoEditorViewModel.Focus, of editor: TodoEditorViewModel) -> String {
        switch focus {
        case .complete: return editor.complete ? "Yes" : "No"
        case .priority: return editor.priority.map { $0.rawValue.capitalized } ?? "None"
        case .list: return editor.listName
        case .text, .due, .start, .tags, .notes: return ""
        }
    }
}
