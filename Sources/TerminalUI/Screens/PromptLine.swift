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

    /// A question, on the last row.
    public static func draw(question: String, into frame: inout Frame) {
        let y = frame.height - 1
        frame.clear(x: 0, y: y, width: frame.width, height: 1)
        frame.put(question, x: 0, y: y, style: [.bold, .warning])
    }
}
