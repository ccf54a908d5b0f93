/// Writes `JSONValue`s as compact JSON text, fast enough for every response on the hot path.
public enum JSONWriter {
    /// The JSON text of a value.
    public static func string(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    /// Appends the JSON text of a value.
    public static func write(_ value: JSONValue, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): writeNumber(n, into: &out)
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                write(item, into: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            var first = true
            for (key, item) in object {
                if !first { out += "," }
                first = false
                writeString(key, into: &out)
                out += ":"
                write(item, into: &out)
            }
            out += "}"
        }
    }

    /// Integral values print without a fraction; NaN and infinities (not JSON) print as null.
    public static func writeNumber(_ n: Double, into out: inout String) {
        guard n.isFinite else { out += "null"; return }
        if n == n.rounded(), abs(n) < 9_007_199_254_740_992 {
            out += String(Int64(n))
        } else {
            out += n.description
        }
    }

    /// A quoted, escaped JSON string.
    public static func writeString(_ s: String, into out: inout String) {
        out += "\""
        var needsEscape = false
        for byte in s.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            needsEscape = true
            break
        }
        if !needsEscape {
            out += s
        } else {
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
