/// Splits `$filter` text into tokens; positions are zero-based Unicode scalar offsets.
public enum FilterLexer {
    /// Tokenizes the whole text; the last token is always `.end`.
    public static func tokenize(_ text: String) throws(FilterParseError) -> [FilterToken] {
        var scanner = Scanner(Array(text.unicodeScalars))
        var tokens: [FilterToken] = []
        while let token = try scanner.next() { tokens.append(token) }
        tokens.append(FilterToken(.end, at: scanner.chars.count))
        return tokens
    }

    private struct Scanner {
        let chars: [Unicode.Scalar]
        var index = 0

        init(_ chars: [Unicode.Scalar]) { self.chars = chars }

        func peek(_ offset: Int = 0) -> Unicode.Scalar? {
            let i = index + offset
            return i < chars.count ? chars[i] : nil
        }

        mutating func next() throws(FilterParseError) -> FilterToken? {
            while let c = peek(), isWhitespace(c) { index += 1 }
            guard let c = peek() else { return nil }
            let start = index
            switch c {
            case "(": index += 1; return FilterToken(.openParen, at: start)
            case ")": index += 1; return FilterToken(.closeParen, at: start)
            case ",": index += 1; return FilterToken(.comma, at: start)
            case "-": index += 1; return FilterToken(.minus, at: start)
            case "'": return FilterToken(.string(try quoted(what: "string", from: start)), at: start)
            case "\"":
                throw FilterParseError("Double quotes are not allowed; strings use single quotes", at: start)
            default:
                if isDigit(c) { return FilterToken(.number(try number()), at: start) }
                if isIdentifierStart(c) { return try word() }
                throw FilterParseError("Unexpected character \(describe(c))", at: start)
            }
        }

        /// `'x'` for a visible character, `U+0000` style for controls and invisible ones.
        func describe(_ c: Unicode.Scalar) -> String {
            let category = c.properties.generalCategory
            guard c.properties.isWhitespace || category == .control || category == .format else { return "'\(Character(c))'" }
            let hex = String(c.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }

        /// Reads `'…'` from the opening quote; `''` stands for one quote. Errors point at `start`.
        mutating func quoted(what: String, from start: Int) throws(FilterParseError) -> String {
            index += 1
            // Most literals have no doubled quote: one slice, no scalar-by-scalar building.
            if let close = chars[index...].firstIndex(of: "'"), close + 1 == chars.count || chars[close + 1] != "'" {
                defer { index = close + 1 }
                return makeString(chars[index..<close])
            }
            var result = String.UnicodeScalarView()
            while let c = peek() {
                index += 1
                if c == "'" {
                    if peek() == "'" { index += 1 } else { return String(result) }
                }
                result.append(c)
            }
            throw FilterParseError("Unterminated \(what) literal", at: start)
        }

        /// Reads digits [. digits] [e [+-] digits] [suffix]; the value must be finite.
        mutating func number() throws(FilterParseError) -> Double {
            let start = index
            skipDigits()
            if peek() == "." {
                index += 1
                guard requireDigits() else { throw invalidNumber(start) }
            }
            if let e = peek(), e == "e" || e == "E" {
                index += 1
                if let s = peek(), s == "+" || s == "-" { index += 1 }
                guard requireDigits() else { throw invalidNumber(start) }
            }
            let text = String(String.UnicodeScalarView(chars[start..<index]))
            if let s = peek(), "LlMmFfDd".unicodeScalars.contains(s) { index += 1 }
            if let s = peek(), isIdentifierPart(s) || s == "." { throw invalidNumber(start) }
            guard let value = Double(text), value.isFinite else {
                throw FilterParseError("Numeric literal out of range", at: start)
            }
            return value
        }

        mutating func skipDigits() { while let c = peek(), isDigit(c) { index += 1 } }

        mutating func requireDigits() -> Bool {
            let before = index
            skipDigits()
            return index > before
        }

        func invalidNumber(_ start: Int) -> FilterParseError {
            var end = index
            while end < chars.count, isIdentifierPart(chars[end]) || chars[end] == "." || chars[end] == "+" { end += 1 }
            let text = String(String.UnicodeScalarView(chars[start..<min(end, start + 40)]))
            return FilterParseError("Invalid numeric literal '\(text)'", at: start)
        }

        /// Reads an identifier, keyword, or typed literal such as `datetime'…'`.
        mutating func word() throws(FilterParseError) -> FilterToken {
            let start = index
            while let c = peek(), isIdentifierPart(c) { index += 1 }
            let name = makeString(chars[start..<index])
            if let keyword = FilterKeyword(rawValue: name) { return FilterToken(.keyword(keyword), at: start) }
            guard peek() == "'" else { return FilterToken(.identifier(name), at: start) }
            guard name == "datetime" || name == "datetimeoffset" else {
                throw FilterParseError("Unsupported literal type '\(name.prefix(40))'", at: start)
            }
            let body = try quoted(what: name, from: start)
            guard let value = FilterDateTime(iso8601: body) else {
                throw FilterParseError("Invalid \(name) literal '\(body.prefix(40))'", at: start)
            }
            return FilterToken(.dateTime(value), at: start)
        }
    }

}

/// A string of scalars; ASCII (every identifier, most literals) is copied byte by byte
/// rather than appended scalar by scalar.
private func makeString(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
    guard scalars.allSatisfy(\.isASCII) else { return String(String.UnicodeScalarView(scalars)) }
    return String(unsafeUninitializedCapacity: scalars.count) { buffer in
        for (offset, scalar) in scalars.enumerated() { buffer[offset] = UInt8(scalar.value) }
        return scalars.count
    }
}

/// ASCII is decided without a Unicode property lookup (the common case, on every token).
func isWhitespace(_ c: Unicode.Scalar) -> Bool {
    c.isASCII ? (c == " " || (c.value >= 9 && c.value <= 13)) : c.properties.isWhitespace
}

private func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 48 && c.value <= 57 }

private func isIdentifierStart(_ c: Unicode.Scalar) -> Bool {
    (c.value >= 65 && c.value <= 90) || (c.value >= 97 && c.value <= 122) || c == "_"
}

private func isIdentifierPart(_ c: Unicode.Scalar) -> Bool { isIdentifierStart(c) || isDigit(c) }
