import Foundation

/// Splits a raw query string into decoded items (`+` is a space, as browsers and OData clients
/// send it), and drops items from it for the next page's link. Byte-level: every pull request goes through here.
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

    /// The raw query without the items whose (decoded, lower-cased) name is in `names`, as the
    /// client spelled it; bytes a URL may not hold are percent-encoded on the way.
    static func removing(_ names: Set<String>, from query: String?) -> String {
        guard let query, !query.isEmpty else { return "" }
        var out: [UInt8] = []
        out.reserveCapacity(query.utf8.count + 8)
        for pair in query.utf8.split(separator: UInt8(ascii: "&")) {
            let name = pair.firstIndex(of: UInt8(ascii: "=")).map { pair[..<$0] } ?? pair
            if names.contains(decode(name).caseFolded) { continue }
            if !out.isEmpty { out.append(UInt8(ascii: "&")) }
            for byte in pair {
                if isQueryByte(byte) {
                    out.append(byte)
                } else {
                    out.append(UInt8(ascii: "%"))
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0xF)])
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// RFC 3986 query characters, `%` included (escapes are kept as the client sent them).
    private static func isQueryByte(_ byte: UInt8) -> Bool { queryBytes[Int(byte)] }

    private static let queryBytes: [Bool] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "-._~!$&'()*+,;=:@/?%".utf8.contains(UInt8(byte))
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
