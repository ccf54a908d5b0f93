import Foundation
import TableProtocol

/// The files `todo export` writes and `todo import` reads: a JSON array of items (`ItemJSON`),
/// or todo.txt (`TodoTxtLine`: priority, `+List`, `@tag`, `due:`, `rec:`, `x DATE`).
public enum TodoFile {
    /// An item and the name of its list (nil: the Inbox), as a file holds it.
    public struct Entry: Sendable, Equatable {
        public var item: TodoItem
        public var listName: String?

        /// An entry.
        public init(item: TodoItem, listName: String? = nil) {
            self.item = item
            self.listName = listName
        }
    }

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
    public static func render(_ entries: [Entry], as format: Format) -> String {
        var writer = Writer(format: format)
        var out: [UInt8] = []
        writer.write(entries, into: &out)
        writer.finish(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A file written a chunk of entries at a time (`todo export` of any size holds one chunk);
    /// the bytes are `render`'s of all of them.
    public struct Writer: Sendable {
        public let format: Format
        private var array = JSONArrayWriter()

        /// A writer of a file in `format`.
        public init(format: Format) { self.format = format }

        /// Appends the next entries.
        public mutating func write(_ entries: [Entry], into out: inout [UInt8]) {
            for entry in entries {
                switch format {
                case .json: array.append(.object(ItemJSON.object(entry.item, listName: entry.listName)), into: &out)
                case .todotxt:
                    out.append(contentsOf: TodoTxtLine.render(entry).utf8)
                    out.append(UInt8(ascii: "\n"))
                }
            }
        }

        /// Appends the file's end.
        public mutating func finish(into out: inout [UInt8]) {
            guard format == .json else { return }
            array.finish(into: &out)
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// Reads a file: JSON when it starts with `[` (or `{`, to say it is not an array), else todo.txt.
    public static func parse(_ data: Data) throws(ParseError) -> [Entry] {
        guard let text = String(data: data, encoding: .utf8) else {
            throw ParseError(line: firstInvalidUTF8Line(data), reason: "the file is not UTF-8 text")
        }
        return looksLikeJSON(text) ? try parseJSON(text) : try parseTodoTxt(text)
    }

    /// A file is JSON when it opens an array of objects (`[ {`, or `[ ]`) or an object (`{ "`,
    /// `{ }`, to say it is not an array); a todo.txt line may well start with `[` or `{`
    /// (`[draft] write`, found by fuzz-todo-file).
    static func looksLikeJSON(_ text: String) -> Bool {
        var characters = text.lazy.filter { !$0.isWhitespace }.makeIterator()
        switch (characters.next(), characters.next()) {
        case ("[", "{"), ("[", "]"), ("[", nil), ("{", "\""), ("{", "}"), ("{", nil): return true
        default: return false
        }
    }

    // MARK: JSON

    private static func parseJSON(_ text: String) throws(ParseError) -> [Entry] {
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
        var entries: [Entry] = []
        var stableIds = StableIds()
        var given = Set<String>()  // the ids the file gives, lower-cased
        for (index, row) in rows.enumerated() {
            let line = index < starts.count ? starts[index] : 1
            guard let object = row.objectValue else { throw ParseError(line: line, reason: "item \(index + 1) is not a JSON object") }
            let entry: Entry
            do {
                entry = try ItemJSON.entry(object) { stableIds.next(for: $0) }
            } catch {
                throw ParseError(line: line, reason: "item \(index + 1) \(error.reason)")
            }
            // Ids compare without letter case: a second item of one id would be left out.
            if object["id"]?.stringValue != nil, !given.insert(entry.item.id.lowercased()).inserted {
                let earlier = entries.firstIndex { $0.item.id.lowercased() == entry.item.id.lowercased() }.map { $0 + 1 } ?? 0
                throw ParseError(line: line, reason: "item \(index + 1) has the id of item \(earlier) (\"\(entry.item.id)\")")
            }
            entries.append(entry)
        }
        return entries
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

    private static func parseTodoTxt(_ text: String) throws(ParseError) -> [Entry] {
        var entries: [Entry] = []
        var stableIds = StableIds()
        // `isNewline`: in Swift "\r\n" is one Character, so a split on "\n" would not see it.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = line.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            if let bad = line.unicodeScalars.first(where: { $0.value < 0x20 && $0 != "\t" }) {
                throw ParseError(line: index + 1, reason: "a control character (U+\(String(format: "%04X", bad.value))) in the text")
            }
            guard let entry = TodoTxtLine.parse(line, id: stableIds.next(for: line)) else { throw ParseError(line: index + 1, reason: "a line with no text") }
            entries.append(entry)
        }
        return entries
    }

    /// Ids made from each item's text (`stableId`), so importing the same file twice finds the
    /// same items; the second item of a text gets one of its own (made from the text and its
    /// count), where it used to share the first's and was left out as present already.
    struct StableIds {
        private var seen: [String: Int] = [:]

        mutating func next(for text: String) -> String {
            let count = seen[text, default: 0] + 1
            seen[text] = count
            return count == 1 ? stableId(for: text) : stableId(for: text + "\u{0}\(count)")
        }
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
