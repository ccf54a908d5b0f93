import TodoKit

/// The hint bar: a view's main keys, from its key table; keys that cannot act now are dim.
public enum HintBar {
    /// Draws the hints that fit on row y.
    public static func draw(_ hints: [Hint], into frame: inout Frame, y: Int) {
        var x = 0
        for hint in hints {
            let keyText = " \(hint.key) "
            let needed = DisplayWidth.of(keyText) + DisplayWidth.of(hint.word) + 1
            guard x + needed <= frame.width else { break }
            x += frame.put(keyText, x: x, y: y, style: hint.isDisabled ? [.reverse, .dim] : .reverse)
            x += frame.put(hint.word + " ", x: x, y: y, style: hint.isDisabled ? .dim : [])
        }
    }
}
