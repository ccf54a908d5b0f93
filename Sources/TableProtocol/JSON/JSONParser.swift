import Foundation

extension JSONValue {
    /// Parses JSON text (RFC 8259, any top-level value) straight into `JSONValue`s, keeping
    /// object key order; a repeated key keeps its last value.
    public static func parse(_ data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { try parse(bytes: $0) }
    }

    /// Parses JSON text held in memory the caller owns (a request body, say) without copying it.
    public static func parse(bytes raw: UnsafeRawBufferPointer) throws -> JSONValue {
        var parser = JSONParser(raw.bindMemory(to: UInt8.self))
        return try parser.parseDocument()
    }
}

/// JSON text that is not valid JSON, with the byte offset where reading stopped.
public struct JSONParseError: Error, CustomStringConvertible {
    /// What was wrong.
    public var reason: String
    /// The byte offset where reading stopped.
    public var offset: Int

    /// Creates an error at a byte offset.
    public init(_ reason: String, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// What was wrong, and where.
    public var description: String { "\(reason) at byte \(offset)" }
}

/// A recursive-descent parser over UTF-8 bytes; nesting is bounded so hostile input cannot
/// exhaust the stack.
struct JSONParser {
    static let maxDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func parseDocument() throws -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected text after the JSON value") }
        return value
    }

    private mutating func parseValue() throws -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of JSON text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try parseObject())
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character")
        }
    }

    private mutating func enter() throws {
        depth += 1
        guard depth <= Self.maxDepth else { throw error("JSON nests deeper than \(Self.maxDepth) levels") }
    }

    private mutating func parseObject() throws -> JSONObject {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [(String, JSONValue)] = []
        var seen: Set<String>?
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { index += 1; return JSONObject(uniqueKeysWithValues: members) }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after a key") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            // Objects are small; a set only once linear search would get slow.
            if members.count >= 16, seen == nil { seen = Set(members.map(\.0)) }
            let repeated = seen != nil ? !seen!.insert(key).inserted : members.contains { $0.0 == key }
            // RFC 8259 leaves a repeated name's meaning open; taking one silently loses the other.
            if repeated { throw error("the key '\(key)' appears more than once in an object") }
            members.append((key, value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of JSON text in an object") }
            let next = bytes[index]
            index += 1
            if next == UInt8(ascii: "}") { return JSONObject(uniqueKeysWithValues: members) }
            guard next == UInt8(ascii: ",") else { index -= 1; throw error("expected ',' or '}' in an object") }
        }
    }

    private mutating func parseArray() throws -> [JSONValue] {
        try enter()
        defer { depth -= 1 }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { index += 1; return items }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of JSON text in an array") }
            let next = bytes[index]
            index += 1
            if next == UInt8(ascii: "]") { return items }
            guard next == UInt8(ascii: ",") else { index -= 1; throw error("expected ',' or ']' in an array") }
        }
    }

    private mutating func parseString() throws -> String {
        index += 1
        let start = index
        var ascii = true
        // Fast path: no escapes, so the bytes between the quotes are the string.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
                // ASCII needs no validating, which goes through a generic path of the standard
                // library, which showed in a first pull's CPU (BENCHMARKS.md, "The app at a
                // million items").
                let string = ascii ? String(decoding: text, as: UTF8.self) : try decodeUTF8(text, at: start)
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw error("unescaped control character in a string") }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        var buffer = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try buffer.withUnsafeBufferPointer { try decodeUTF8($0, at: start) }
            case UInt8(ascii: "\\"):
                try appendEscape(into: &buffer)
            case 0..<0x20:
                index -= 1
                throw error("unescaped control character in a string")
            default:
                buffer.append(byte)
            }
        }
        throw error("unterminated string")
    }

    private mutating func appendEscape(into buffer: inout [UInt8]) throws {
        guard index < bytes.count else { throw error("unterminated string") }
        let code = bytes[index]
        index += 1
        switch code {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(code)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired surrogate in a \\u escape")
                }
                index += 2
                let low = try readHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate in a \\u escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("unpaired surrogate in a \\u escape")
            }
            buffer.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            index -= 1
            throw error("invalid escape in a string")
        }
    }

    private mutating func readHex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in a \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func decodeUTF8(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) throws -> String {
        guard let string = String(validating: text, as: UTF8.self) else {
            throw JSONParseError("invalid UTF-8 in a string", at: offset)
        }
        return string
    }

    private mutating func parseNumber() throws -> Double {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("a number needs digits") }
        var integer: UInt64 = 0
        var digits = 0
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw error("a number cannot have leading zeros") }
            digits = 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) {
                if digits < 18 { integer = integer * 10 + UInt64(bytes[index] - UInt8(ascii: "0")) }
                digits += 1
                index += 1
            }
        }
        var plain = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            plain = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("a fraction needs digits") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            plain = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("an exponent needs digits") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        // Integers of up to 15 digits are exact in a Double; anything else goes through strtod.
        if plain, digits <= 15 {
            let value = Double(integer)
            return negative ? -value : value
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw JSONParseError("number out of range", at: start) }
        return value
    }

    private mutating func expectWord(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of JSON text") }
        for i in 0..<count where bytes[index + i] != word.utf8Start[i] {
            throw error("unexpected character")
        }
        index += count
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func error(_ message: String) -> JSONParseError {
        JSONParseError(message, at: index)
    }
}
