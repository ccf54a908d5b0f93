import TodoKit

/// The list's bottom line as a prompt: "New item: …", "Filter: …", or a y/n question.
public enum PromptLine {
    /// A label and a text field, on the last row.
    public static func draw(_ label: String, field: TextField, into frame: inout Frame) {
        let y = frame.height - 1
        frame.clear(x: 0, y: y, width: frame.width, height: 1)
        frame.put(label, x: 0, y: y, style: .bold)
        TextFieldView.draw(field, into: &frame, x: DisplayWidth.of(label), y: y, width: frame.width - DisplayWidth.of(label))
    }

    /// What a prompt understood, on the row above it (over the status bar); nothing when empty.
    public static func draw(preview: String, into frame: inout Frame) {
        guard !preview.isEmpty else { return }
        let y = frame.height - 2
        frame.clear(x: 0, y: y, width: frame.width, height: 1)
        frame.put(" → " + preview, x: 0, y: y, style: .accent, maxWidth: frame.width)
    }

    /// A question, on the last row.
    public static func draw(question: String, into frame: inout Frame) {
        let y = frame.height - 1
        frame.clear(x: 0, y: y, width: frame.width, height: 1)
        frame.put(question, x: 0, y: y, style: [.bold, .warning])
    }
}
