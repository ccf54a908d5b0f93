/// Text and real values as the text of a JSON array, for SQLite's `json_each` to read back as
/// the same values (`SQLiteDialect.isOneOf`).
struct JSONArrayText {
    let text: String

    /// Nil when a value has no JSON form that reads back as itself: a null, a boolean, an
    /// integer, a number that is not finite, or text holding a NUL (which SQLite's JSON
    /// functions end the text at).
    init?(_ values: [SQLValue]) {
        var out = "["
        for (index, value) in values.enumerated() {
            if index > 0 { out += "," }
            switch value {
            case .text(let text):
                guard !text.utf8.contains(0) else { return nil }
                Self.append(quoted: text, to: &out)
            case .real(let number):
                guard number.isFinite else { return nil }
                out += "\(number)"
            case .null, .boolean, .integer:
                return nil
            }
        }
        text = out + "]"
    }

    private static func append(quoted text: String, to out: inout String) {
        out += "\""
        // Most ids need no escape: append them whole.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            out += text
            out += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
