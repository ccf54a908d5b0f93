import TodoKit

/// Draws the "Todo Item" editor.
public enum EditorScreen {
    /// Renders the editor, the status bar and the editor's hints.
    public static func render(_ editor: TodoEditorViewModel, status: SyncStatus, hints: [Hint], width: Int, height: Int) -> Frame {
        var frame = Frame(width: width, height: height)
        frame.clear(x: 0, y: 0, width: width, height: 1, style: [.reverse, .accent])
        frame.put(" Todo Item", x: 0, y: 0, style: [.reverse, .bold, .accent])
        let label = "Text:      "
        frame.put(label, x: 2, y: 2, style: editor.focus == .text ? .bold : [])
        let fieldX = 2 + DisplayWidth.of(label)
        if editor.focus == .text {
            TextFieldView.draw(editor.text, into: &frame, x: fieldX, y: 2, width: width - fieldX - 2)
        } else {
            frame.put(editor.text.text, x: fieldX, y: 2, style: .underline, maxWidth: width - fieldX - 2)
        }
        frame.put("Complete:  ", x: 2, y: 4, style: editor.focus == .complete ? .bold : [])
        let choice = editor.complete ? "◀ Yes ▶" : "◀ No ▶"
        frame.put(choice, x: fieldX, y: 4, style: editor.focus == .complete ? .reverse : [])
        if let notice = editor.notice { frame.put(notice, x: 2, y: 6, style: .warning, maxWidth: width - 4) }
        StatusBar.draw(status, into: &frame, y: height - 2)
        HintBar.draw(hints, into: &frame, y: height - 1)
        return frame
    }
}
