import TodoKit

/// Composes the whole screen from the app's state: the list, then each layer over it, bottom-up,
/// in the stack's order. The hint bar shows the keys of the top view.
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
        let hints = app.top.hints(in: app)
        var frame = ListScreen.render(app.list, status: app.status, today: app.today, sidebar: Sidebar(app), readOnly: app.scopeReadOnlyReason != nil, reminded: app.remindersState.marked,
                                      hints: hints, width: width, height: height)
        for layer in app.layers { draw(layer, of: app, hints: hints, over: &frame) }
        return frame
    }

    /// Draws one layer: full screens replace what is below, prompts take the bottom line, the
    /// rest are boxes over it.
    private static func draw(_ layer: Layer, of app: AppState, hints: [Hint], over frame: inout Frame) {
        switch layer {
        case .addPrompt(let prompt):
            PromptLine.draw("New item: ", field: prompt.field, into: &frame)
            PromptLine.draw(preview: prompt.parsed.summary, into: &frame)
        case .markedChangePrompt(let prompt):
            PromptLine.draw(prompt.label, field: prompt.field, into: &frame)
            PromptLine.draw(preview: prompt.preview, into: &frame)
        case .filterPrompt: PromptLine.draw("Filter: ", field: app.list.filter, into: &frame)
        case .itemConfirmation(let confirmation): PromptLine.draw(question: confirmation.question + " (y/n)", into: &frame)
        case .help(let help): HelpOverlay.draw(help.rows, scroll: help.scroll, over: &frame)
        case .scopeSwitcher(let switcher): ScopeSwitcherBox.draw(switcher, over: &frame)
        case .editor(let editor):
            frame = EditorScreen.render(editor, status: app.status, hints: hints, width: frame.width, height: frame.height)
        case .history(let history):
            frame = ConflictHistoryScreen.render(history, status: app.status, hints: hints, width: frame.width, height: frame.height)
        case .signIn(let dialog):
            SignInDialog.draw(dialog, server: app.status.server ?? "", hints: dialog.hints(in: app), over: &frame)
        case .conflict(let dialog): ConflictDialog.draw(dialog, over: &frame)
        case .share(let dialog): ShareDialog.draw(dialog, hints: dialog.hints(in: app), over: &frame)
        case .export(let prompt):
            PromptLine.draw("Export to: ", field: prompt.field, into: &frame)
            PromptLine.draw(preview: prompt.preview, into: &frame)
        }
    }
}
