/// Writes `JSONValue`s as compact JSON, into bytes: every response body goes through here, and
/// appending to a `[UInt8]` is several times cheaper than growing a `String`.
public enum JSONWriter {
    /// The JSON text of a value.
    public static func string(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    /// The JSON text of a value as UTF-8 bytes.
    public static func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        // A page of items is most bodies: room for a typical row each, so the buffer rarely regrows.
        if case .array(let items) = value { out.reserveCapacity(64 + items.count * 256) } else { out.reserveCapacity(256) }
        write(value, into: &out)
        return out
    }

    /// Appends the JSON text of a value.
    public static func write(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .null: append("null", to: &out)
        case .bool(let b): append(b ? "true" : "false", to: &out)
        case .number(let n): writeNumber(n, into: &out)
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, item) in object {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                write(item, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Integral values print without a fraction; NaN and infinities (not JSON) print as null.
    public static func writeNumber(_ n: Double, into out: inout [UInt8]) {
        guard n.isFinite else { append("null", to: &out); return }
        if n == n.rounded(), abs(n) < 9_007_199_254_740_992 {
            writeInteger(Int64(n), into: &out)
        } else {
            out.append(contentsOf: n.description.utf8)
        }
    }

    /// Decimal digits of an integer, without going through `String`.
    public static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        let start = out.count
        var magnitude = value.magnitude
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out[start...].reverse()
    }

    /// A quoted, escaped JSON string.
    public static func writeString(_ s: String, into out: inout [UInt8]) {
        var s = s
        s.withUTF8 { writeString(utf8: $0, into: &out) }  // native strings need no copy
    }

    /// A quoted, escaped JSON string from UTF-8 bytes the caller has validated.
    public static func writeString(utf8: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var clean = utf8.startIndex
        for i in utf8.indices {
            let byte = utf8[i]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<i]))
            clean = i + 1
            out.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
            case 0x0A: out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "t"))
            default:
                append("u00", to: &out)
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0xF))
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
        out.append(UInt8(ascii: "\""))
    }

    /// Appends raw JSON text (a literal the caller knows is valid).
    public static func append(raw text: StaticString, to out: inout [UInt8]) { append(text, to: &out) }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
