import Foundation
import TableProtocol

/// The files `todo export` writes and `todo import` reads: a JSON array of
/// `{"id", "text", "complete"}`, or todo.txt (one item per line, `x ` marks a done one;
/// priorities, dates and tags stay in the text).
public enum TodoFile {
    /// A file format.
    public enum Format: String, Sendable, CaseIterable {
        case json, todotxt
    }

    /// A file that cannot be read, with the line where it goes wrong.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// The 1-based line.
        public var line: Int
        /// What is wrong there.
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// The items as a file.
    public static func render(_ items: [TodoItem], as format: Format) -> String {
        switch format {
        case .json:
            let rows: [JSONValue] = items.map { item in
                .object(JSONObject([("id", .string(item.id)), ("text", .string(item.text)), ("complete", .bool(item.complete))]))
            }
            return JSONWriter.string(.array(rows)) + "\n"
        case .todotxt:
            return items.map { ($0.complete ? "x " : "") + $0.text.replacingOccurrences(of: "\n", with: " ") + "\n" }.joined()
        }
    }

    /// Reads a file: JSON when it starts with `[`, else todo.txt.
    public static func parse(_ data: Data) throws(ParseError) -> [TodoItem] {
        guard let text = String(data: data, encoding: .utf8) else {
            throw ParseError(line: firstInvalidUTF8Line(data), reason: "the file is not UTF-8 text")
        }
        return text.first(where: { !$0.isWhitespace }) == "[" ? try parseJSON(text) : try parseTodoTxt(text)
    }

    // MARK: JSON

    private static func parseJSON(_ text: String) throws(ParseError) -> [TodoItem] {
        let value: JSONValue
        do {
            value = try JSONValue.parse(Data(text.utf8))
        } catch let error as JSONParseError {
            throw ParseError(line: line(at: error.offset, in: text), reason: "not valid JSON (\(error))")
        } catch {
            throw ParseError(line: 1, reason: "not valid JSON (\(error))")
        }
        guard case .array(let rows) = value else { throw ParseError(line: 1, reason: "expected a JSON array of items") }
        let starts = elementLines(text)
        var items: [TodoItem] = []
        for (index, row) in rows.enumerated() {
            let line = index < starts.count ? starts[index] : 1
            guard let object = row.objectValue else { throw ParseError(line: line, reason: "item \(index + 1) is not a JSON object") }
            guard let itemText = object["text"]?.stringValue, !itemText.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ParseError(line: line, reason: "item \(index + 1) has no \"text\" string")
            }
            var item = TodoItem(id: stableId(for: itemText), text: itemText)
            switch object["id"] {
            case nil, .null?: break
            case .string(let id)? where ItemID.validate(id) == nil: item.id = id
            default: throw ParseError(line: line, reason: "item \(index + 1) has an \"id\" that is not a valid id string")
            }
            switch object["complete"] {
            case nil, .null?: break
            case .bool(let complete)?: item.complete = complete
            default: throw ParseError(line: line, reason: "item \(index + 1) has a \"complete\" that is not true or false")
            }
            items.append(item)
        }
        return items
    }

    /// The line each top-level array element starts on (a small scan that skips strings).
    private static func elementLines(_ text: String) -> [Int] {
        var lines: [Int] = []
        var (line, depth, inString, escaped, expecting) = (1, 0, false, false, false)
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\n") { line += 1 }
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            let isSpace = byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
            if depth == 1 && expecting && !isSpace && byte != UInt8(ascii: "]") {
                lines.append(line)
                expecting = false
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth == 1 { expecting = true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            case UInt8(ascii: ","): if depth == 1 { expecting = true }
            default: break
            }
        }
        return lines
    }

    // MARK: todo.txt

    private static func parseTodoTxt(_ text: String) throws(ParseError) -> [TodoItem] {
        var items: [TodoItem] = []
        // `isNewline`: in Swift "\r\n" is one Character, so a split on "\n" would not see it.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            if let bad = line.unicodeScalars.first(where: { $0.value < 0x20 && $0 != "\t" }) {
                throw ParseError(line: index + 1, reason: "a control character (U+\(String(format: "%04X", bad.value))) in the text")
            }
            let done = line.hasPrefix("x ")
            let itemText = (done ? String(line.dropFirst(2)) : String(line)).trimmingCharacters(in: .whitespaces)
            guard !itemText.isEmpty else { throw ParseError(line: index + 1, reason: "a done mark with no text") }
            items.append(TodoItem(id: stableId(for: (done ? "x " : "") + itemText), text: itemText, complete: done))
        }
        return items
    }

    /// An id made from the line, so importing the same file twice finds the same items.
    static func stableId(for text: String) -> String {
        // FNV-1a, 128 bits from two 64-bit lanes: stable across runs and machines (Hasher is not).
        var (a, b): (UInt64, UInt64) = (0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4)
        for byte in text.utf8 {
            a = (a ^ UInt64(byte)) &* 0x100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x100_0000_01b3 &+ 0x9e37
        }
        return "txt-" + String(a, radix: 16) + String(b, radix: 16)
    }

    private static func line(at offset: Int, in text: String) -> Int {
        1 + text.utf8.prefix(offset).filter { $0 == UInt8(ascii: "\n") }.count
    }

    private static func firstInvalidUTF8Line(_ data: Data) -> Int {
        var line = 1
        for chunk in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if String(data: Data(chunk), encoding: .utf8) == nil { return line }
            line += 1
        }
        return line
    }
}
