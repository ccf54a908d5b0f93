/// The part of TOML 1.0 a config file needs, read strictly: comments, `[table]` headers, bare,
/// quoted and dotted keys, inline tables, the four kinds of string and booleans. A value of any
/// other TOML type is read as far as "not a string and not a boolean", which is an error for
/// every setting anyway.
///
/// Hand-written rather than TOMLKit (toml++ 3.4), for what fuzz-config found there: toml++ only
/// asserts what it assumes of its input (`[!a]`, `a = [}`: TOML_ASSERT_ASSUME, an abort in a
/// debug build and undefined behaviour in a release one), and TOMLKit leaks on every parse.
struct ConfigReader {
    /// A value the reader takes: a string, a boolean, or a table of values (`ui = { … }`).
    enum Value: Equatable {
        case string(String)
        case bool(Bool)
        case table
        /// Any other TOML value (a number, a date, an array): never a setting's.
        case other
    }

    /// One `key = value` (or `[table]`), with its whole key path and line.
    struct Entry: Equatable {
        var key: [String]
        var value: Value
        var line: Int
    }

    /// A line that is not TOML the reader takes.
    struct SyntaxError: Error, Equatable {
        var line: Int
        var message: String
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1

    private init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { index = 1 }  // a byte order mark
    }

    /// Every entry of `text` in order, each key path whole (`[ui]` then `live = true` is
    /// `ui.live`); a header is an entry whose value is `.table`. A key set twice is an error, as
    /// TOML says.
    static func entries(_ text: String) throws(SyntaxError) -> [Entry] {
        var reader = ConfigReader(text)
        return try reader.document()
    }

    private mutating func document() throws(SyntaxError) -> [Entry] {
        var entries: [Entry] = []
        var table: [String] = []
        var seen: Set<[String]> = []
        func add(_ entry: Entry) throws(SyntaxError) {
            guard seen.insert(entry.key).inserted else {
                throw SyntaxError(line: entry.line, message: "'\(entry.key.joined(separator: "."))' is set twice")
            }
            entries.append(entry)
        }
        while true {
            skipBlank()
            guard let scalar = peek() else { return entries }
            switch scalar {
            case "\n":
                advanceLine()
            case "#":
                skipComment()
            case "[":
                let start = line
                index += 1
                guard peek() != "[" else { throw SyntaxError(line: line, message: "arrays of tables ([[…]]) are not settings") }
                skipBlank()
                table = try key()
                skipBlank()
                guard peek() == "]" else { throw SyntaxError(line: line, message: "a table header ends with ']'") }
                index += 1
                try endOfLine()
                try add(Entry(key: table, value: .table, line: start))
            default:
                let start = line
                let path = table + (try key())
                skipBlank()
                guard peek() == "=" else { throw SyntaxError(line: line, message: "expected '=' after the key '\(path.joined(separator: "."))'") }
                index += 1
                skipBlank()
                if peek() == "{" {
                    index += 1
                    try add(Entry(key: path, value: .table, line: start))
                    for entry in try inlineTable(under: path) { try add(entry) }
                } else {
                    try add(Entry(key: path, value: try value(), line: start))
                }
                try endOfLine()
            }
        }
    }

    /// `{ a = 1, b.c = "x" }` after its `{`, on one line as TOML 1.0 says.
    private mutating func inlineTable(under path: [String]) throws(SyntaxError) -> [Entry] {
        var entries: [Entry] = []
        skipBlank()
        if peek() == "}" {
            index += 1
            return entries
        }
        while true {
            skipBlank()
            let key = path + (try self.key())
            skipBlank()
            guard peek() == "=" else { throw SyntaxError(line: line, message: "expected '=' after the key '\(key.joined(separator: "."))'") }
            index += 1
            skipBlank()
            if peek() == "{" {
                index += 1
                entries.append(Entry(key: key, value: .table, line: line))
                entries += try inlineTable(under: key)
            } else {
                entries.append(Entry(key: key, value: try value(), line: line))
            }
            skipBlank()
            switch peek() {
            case ",": index += 1
            case "}":
                index += 1
                return entries
            default: throw SyntaxError(line: line, message: "an inline table goes on with ',' or ends with '}' on its line")
            }
        }
    }

    /// A dotted key: simple keys joined by `.`, blanks allowed around the dots.
    private mutating func key() throws(SyntaxError) -> [String] {
        var parts = [try simpleKey()]
        while true {
            let mark = index
            skipBlank()
            guard peek() == "." else {
                index = mark
                return parts
            }
            index += 1
            skipBlank()
            parts.append(try simpleKey())
        }
    }

    private mutating func simpleKey() throws(SyntaxError) -> String {
        switch peek() {
        case "\"": return try basicString()
        case "'": return try literalString()
        default:
            var name = ""
            while let scalar = peek(), Self.isBare(scalar) {
                name.unicodeScalars.append(scalar)
                index += 1
            }
            guard !name.isEmpty else { throw SyntaxError(line: line, message: "expected a key (letters, digits, '-', '_' or a quoted name)") }
            return name
        }
    }

    private mutating func value() throws(SyntaxError) -> Value {
        if starts(with: "\"\"\"") { return .string(try multiLineString(basic: true)) }
        if starts(with: "'''") { return .string(try multiLineString(basic: false)) }
        switch peek() {
        case "\"": return .string(try basicString())
        case "'": return .string(try literalString())
        case nil, "\n", "#": throw SyntaxError(line: line, message: "expected a value after '='")
        default:
            if takeWord("true") { return .bool(true) }
            if takeWord("false") { return .bool(false) }
            try skipOtherValue()
            return .other
        }
    }

    /// A number, date or array: skipped to where the value ends (brackets balanced, strings
    /// skipped), so the error names the setting rather than the syntax.
    private mutating func skipOtherValue() throws(SyntaxError) {
        var depth = 0
        while let scalar = peek() {
            if depth == 0, scalar == "," || scalar == "#" || scalar == "\n" { return }
            switch scalar {
            case "[", "{": depth += 1
            case "]", "}":
                guard depth > 0 else { return }
                depth -= 1
            case "#": skipComment(); continue  // a comment inside a multi-line array
            case "\n": advanceLine(); continue
            case "\"": _ = try starts(with: "\"\"\"") ? multiLineString(basic: true) : basicString(); continue
            case "'": _ = try starts(with: "'''") ? multiLineString(basic: false) : literalString(); continue
            default: break
            }
            index += 1
        }
        if depth > 0 { throw SyntaxError(line: line, message: "an array or table is not closed") }
    }

    private mutating func basicString() throws(SyntaxError) -> String {
        index += 1
        var text = ""
        while let scalar = peek() {
            index += 1
            switch scalar {
            case "\"": return text
            case "\\": text.unicodeScalars.append(try escape())
            case "\n": throw SyntaxError(line: line, message: "a string in \" is not closed on its line")
            default:
                try checkControl(scalar)
                text.unicodeScalars.append(scalar)
            }
        }
        throw SyntaxError(line: line, message: "a string in \" is not closed")
    }

    private mutating func literalString() throws(SyntaxError) -> String {
        index += 1
        var text = ""
        while let scalar = peek() {
            index += 1
            switch scalar {
            case "'": return text
            case "\n": throw SyntaxError(line: line, message: "a string in ' is not closed on its line")
            default:
                try checkControl(scalar)
                text.unicodeScalars.append(scalar)
            }
        }
        throw SyntaxError(line: line, message: "a string in ' is not closed")
    }

    /// `"""…"""` or `'''…'''`: a newline right after the opening is dropped, and in a basic one a
    /// `\` at a line's end drops the line break and the blanks after it. Up to two quotes may end
    /// the text just before the closing three.
    private mutating func multiLineString(basic: Bool) throws(SyntaxError) -> String {
        let quote: Unicode.Scalar = basic ? "\"" : "'"
        let start = line
        index += 3
        if peek() == "\r", index + 1 < scalars.count, scalars[index + 1] == "\n" { index += 1 }
        if peek() == "\n" { advanceLine() }
        var text = ""
        while let scalar = peek() {
            if scalar == quote, starts(with: String(repeating: String(quote), count: 3)) {
                var run = 0
                while peek() == quote, run < 5 { index += 1; run += 1 }
                text += String(repeating: String(quote), count: run - 3)
                return text
            }
            index += 1
            switch scalar {
            case "\n":
                line += 1
                text.unicodeScalars.append(scalar)
            case "\\" where basic:
                let mark = index
                skipBlank()
                if peek() == "\r" { index += 1 }
                if peek() == "\n" {
                    while let next = peek(), next == "\n" || next == " " || next == "\t" || next == "\r" {
                        if next == "\n" { line += 1 }
                        index += 1
                    }
                } else {
                    index = mark
                    text.unicodeScalars.append(try escape())
                }
            case "\r" where peek() == "\n":
                text.unicodeScalars.append(scalar)
            default:
                try checkControl(scalar)
                text.unicodeScalars.append(scalar)
            }
        }
        throw SyntaxError(line: start, message: "a string in \(String(repeating: String(quote), count: 3)) is not closed")
    }

    /// After a `\`: one of TOML's escapes.
    private mutating func escape() throws(SyntaxError) -> Unicode.Scalar {
        guard let scalar = peek() else { throw SyntaxError(line: line, message: "a string ends in '\\'") }
        index += 1
        switch scalar {
        case "b": return "\u{08}"
        case "t": return "\t"
        case "n": return "\n"
        case "f": return "\u{0C}"
        case "r": return "\r"
        case "\"": return "\""
        case "\\": return "\\"
        case "u", "U":
            let count = scalar == "u" ? 4 : 8
            var value: UInt32 = 0
            for _ in 0..<count {
                guard let digit = peek(), let nibble = Self.hexValue(digit) else {
                    throw SyntaxError(line: line, message: "'\\\(scalar)' takes \(count) hexadecimal digits")
                }
                value = value &* 16 &+ nibble
                index += 1
            }
            guard let code = Unicode.Scalar(value) else { throw SyntaxError(line: line, message: "'\\\(scalar)' names no Unicode character") }
            return code
        default:
            throw SyntaxError(line: line, message: "'\\\(Self.visible(scalar))' is not an escape TOML knows")
        }
    }

    /// TOML allows no control character but tab in a string.
    private func checkControl(_ scalar: Unicode.Scalar) throws(SyntaxError) {
        if scalar.value < 0x20 && scalar != "\t" || scalar.value == 0x7F {
            throw SyntaxError(line: line, message: "a control character (U+\(String(scalar.value, radix: 16, uppercase: true))) in a string; write it as an escape")
        }
    }

    /// Blanks, then a comment, then the line's end (or the file's).
    private mutating func endOfLine() throws(SyntaxError) {
        skipBlank()
        if peek() == "#" { skipComment() }
        if peek() == "\r" { index += 1 }
        guard let scalar = peek() else { return }
        guard scalar == "\n" else { throw SyntaxError(line: line, message: "unexpected '\(Self.visible(scalar))': one setting per line") }
    }

    private mutating func skipComment() {
        while let scalar = peek(), scalar != "\n" { index += 1 }
    }

    private mutating func skipBlank() {
        while let scalar = peek(), scalar == " " || scalar == "\t" || scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n" {
            index += 1
        }
    }

    private mutating func advanceLine() {
        index += 1
        line += 1
    }

    private func peek() -> Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func starts(with prefix: String) -> Bool { scalars[index...].starts(with: prefix.unicodeScalars) }

    /// `word` when no key character follows it (`true`, not `trueish`).
    private mutating func takeWord(_ word: String) -> Bool {
        guard starts(with: word) else { return false }
        let end = index + word.unicodeScalars.count
        guard end == scalars.count || !Self.isBare(scalars[end]) else { return false }
        index = end
        return true
    }

    private static func isBare(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", "_", "-": return true
        default: return false
        }
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": return scalar.value - 0x30
        case "a"..."f": return scalar.value - 0x61 + 10
        case "A"..."F": return scalar.value - 0x41 + 10
        default: return nil
        }
    }

    /// A character as an error message shows it (control characters by number).
    private static func visible(_ scalar: Unicode.Scalar) -> String {
        scalar.properties.generalCategory == .control ? "U+\(String(scalar.value, radix: 16, uppercase: true))" : String(scalar)
    }
}
