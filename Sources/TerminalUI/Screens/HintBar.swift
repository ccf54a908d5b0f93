import TodoKit

/// The hint bar: a view's main keys, from its key table; keys that cannot act now are dim.
public enum HintBar {
    /// Draws the hints that fit on row y, from column `x` up to `width` columns.
    public static func draw(_ hints: [Hint], into frame: inout Frame, x start: Int = 0, y: Int, width: Int? = nil) {
        var x = start
        let end = start + (width ?? frame.width - start)
        for hint in hints {
            let keyText = " \(hint.key) "
            let needed = DisplayWidth.of(keyText) + DisplayWidth.of(hint.word) + 1
            guard x + needed <= end else { break }
            x += frame.put(keyText, x: x, y: y, style: hint.isDisabled ? [.reverse, .dim] : .reverse)
            x += frame.put(hint.word + " ", x: x, y: y, style: hint.isDisabled ? .dim : [])
        }
    }
}
