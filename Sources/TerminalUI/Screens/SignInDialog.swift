import TodoKit

/// Draws the sign-in dialog: user name, masked password, the last failure, and its keys.
public enum SignInDialog {
    /// Draws the dialog centred over `frame`.
    public static func draw(_ dialog: SignInDialogViewModel, server: String, hints: [Hint], over frame: inout Frame) {
        let width = min(frame.width - 2, 60)
        let height = min(frame.height - 2, 9)
        let x = (frame.width - width) / 2
        let y = (frame.height - height) / 2
        Box.draw(into: &frame, x: x, y: y, width: width, height: height, title: "Sign in to \(server)")
        let labelWidth = 11
        let fieldWidth = width - labelWidth - 4
        frame.put("User:", x: x + 2, y: y + 2, style: dialog.focus == .user ? .bold : [])
        frame.put("Password:", x: x + 2, y: y + 3, style: dialog.focus == .password ? .bold : [])
        draw(dialog.user, focused: dialog.focus == .user, into: &frame, x: x + 2 + labelWidth, y: y + 2, width: fieldWidth)
        // The password is never drawn: one • per character.
        let masked = TextField(String(repeating: "•", count: dialog.password.characters.count))
        draw(masked, focused: dialog.focus == .password, into: &frame, x: x + 2 + labelWidth, y: y + 3, width: fieldWidth)
        if dialog.isSigningIn {
            frame.put("Signing in…", x: x + 2, y: y + 5, style: .dim, maxWidth: width - 4)
        } else if let error = dialog.error {
            frame.put(error, x: x + 2, y: y + 5, style: .warning, maxWidth: width - 4)
        }
        HintBar.draw(hints, into: &frame, x: x + 2, y: y + height - 2, width: width - 4)
    }

    private static func draw(_ field: TextField, focused: Bool, into frame: inout Frame, x: Int, y: Int, width: Int) {
        if focused {
            TextFieldView.draw(field, into: &frame, x: x, y: y, width: width)
        } else {
            frame.put(field.text, x: x, y: y, style: .underline, maxWidth: width)
        }
    }
}
