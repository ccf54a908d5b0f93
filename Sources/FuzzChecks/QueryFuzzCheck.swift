import Foundation
import TableProtocol

/// Bytes → a raw query string split into items → `TableQuery(queryItems:)`. Holds: never traps
/// (a rejection is a `TableQueryError`, by typed throws); an accepted query's canonical items
/// (`queryItems`) parse back to the same query.
public enum QueryFuzzCheck {
    public static func check(_ input: UnsafeRawBufferPointer) -> FuzzFailure? {
        guard let parsed = try? TableQuery(queryItems: items(input)) else { return nil }
        do {
            let again = try TableQuery(queryItems: parsed.queryItems)
            guard again == parsed else { return FuzzFailure("canonical items parse to another query: \(parsed.queryItems) → \(again)") }
        } catch {
            return FuzzFailure("canonical items do not parse (\(error)): \(parsed.queryItems)")
        }
        return nil
    }

    /// The server's split (SyncServer's QueryString, which the parsers' targets do not link): `&`
    /// between items, the first `=` between name and value, `+` for a space, `%XX` decoded and a
    /// malformed escape kept, bytes that are not UTF-8 repaired. By hand: Foundation's
    /// `removingPercentEncoding` took most of this target's time, and it rejects a whole part for
    /// one bad escape.
    static func items(_ query: UnsafeRawBufferPointer) -> [URLQueryItem] {
        func decode(_ part: ArraySlice<UInt8>) -> String {
            var bytes: [UInt8] = []
            var i = part.startIndex
            while i < part.endIndex {
                if part[i] == UInt8(ascii: "%"), i + 2 < part.endIndex, let high = hex(part[i + 1]), let low = hex(part[i + 2]) {
                    bytes.append(high << 4 | low)
                    i += 3
                } else {
                    bytes.append(part[i] == UInt8(ascii: "+") ? UInt8(ascii: " ") : part[i])
                    i += 1
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        return Array(query).split(separator: UInt8(ascii: "&")).map { pair in
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return URLQueryItem(name: decode(pair), value: nil) }
            return URLQueryItem(name: decode(pair[..<equals]), value: decode(pair[(equals + 1)...]))
        }
    }

    static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
