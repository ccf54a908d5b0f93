import Foundation

/// Splits a raw query string into decoded items (`+` is a space, as browsers and OData clients
/// send it), and encodes them back. Byte-level: every pull request goes through here.
enum QueryString {
    static func items(_ query: String?) -> [URLQueryItem] {
        guard let query, !query.isEmpty else { return [] }
        return query.utf8.split(separator: UInt8(ascii: "&")).map { pair in
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return URLQueryItem(name: decode(pair), value: nil) }
            return URLQueryItem(name: decode(pair[..<equals]), value: decode(pair[pair.index(after: equals)...]))
        }
    }

    /// Percent-decodes one component; a malformed escape is kept as it is, and bytes that do
    /// not form UTF-8 become U+FFFD (the query parser then rejects what it cannot read).
    static func decode(_ component: Substring.UTF8View) -> String {
        guard component.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(Substring(component))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(component.count)
        var i = component.startIndex
        while i < component.endIndex {
            let byte = component[i]
            i = component.index(after: i)
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), let high = component[i...].first.flatMap(hexValue),
                      let low = component[component.index(after: i)...].first.flatMap(hexValue) {
                bytes.append(high << 4 | low)
                i = component.index(i, offsetBy: 2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Encodes items for a URL: everything but letters, digits and `-._~$` is escaped.
    static func encode(_ items: [URLQueryItem]) -> String {
        var out: [UInt8] = []
        for (n, item) in items.enumerated() {
            if n > 0 { out.append(UInt8(ascii: "&")) }
            escape(item.name, into: &out)
            if let value = item.value {
                out.append(UInt8(ascii: "="))
                escape(value, into: &out)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func escape(_ text: String, into out: inout [UInt8]) {
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "$"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
