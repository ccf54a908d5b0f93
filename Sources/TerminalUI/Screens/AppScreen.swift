import TodoKit

/// Composes the whole screen from the app's state: list or editor, then overlays.
public enum AppScreen {
    /// The smallest terminal the app draws in.
    public static let minimumSize = (width: 40, height: 10)

    /// Renders everything for a terminal size.
    public static func render(_ app: AppState, width: Int, height: Int) -> Frame {
        guard width >= minimumSize.width, height >= minimumSize.height else {
            var frame = Frame(width: width, height: height)
            frame.put("Terminal too small", x: 0, y: 0, style: .bold)
            frame.put("needs \(minimumSize.width)×\(minimumSize.height), has \(width)×\(height)", x: 0, y: min(1, height - 1))
            return frame
        }
        var frame: Frame
        if let history = app.history {
            frame = ConflictHistoryScreen.render(history, status: app.status, hints: KeyTables.history.hints(in: app), width: width, height: height)
        } else if let editor = app.editor {
            frame = EditorScreen.render(editor, status: app.status, hints: KeyTables.editor.hints(in: app), width: width, height: height)
        } else {
            frame = ListScreen.render(app.list, status: app.status, hints: KeyTables.list.hints(in: app), width: width, height: height)
            if case .help(let scroll) = app.list.mode { HelpOverlay.draw(KeyTables.helpRows, scroll: scroll, over: &frame) }
        }
        if let signIn = app.signIn {
            SignInDialog.draw(signIn, server: app.status.server ?? "", hints: KeyTables.signIn.hints(in: app), over: &frame)
        }
        if let dialog = app.conflict { AlertDialog.draw(dialog, over: &frame) }
        return frame
    }
}
