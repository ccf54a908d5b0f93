import Foundation
import TodoModel

/// Bytes → `TodoFile.parse` (`todo import`: JSON or todo.txt). Holds: a rejection is a
/// `ParseError` naming a line inside the file; what reads, written as JSON, reads back to the
/// same entries; written as todo.txt, it reads again without a trap.
public enum TodoFileFuzzCheck {
    public static func check(_ input: UnsafeRawBufferPointer) -> FuzzFailure? {
        let bytes = Data(input)
        let entries: [TodoFile.Entry]
        do {
            entries = try TodoFile.parse(bytes)
        } catch {
            // Lines as the parser counts them: any line end in text, "\n" in bytes that are not UTF-8.
            let text = String(decoding: bytes, as: UTF8.self)
            let lines = max(bytes.filter { $0 == UInt8(ascii: "\n") }.count + 1,
                            text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count)
            guard (0...lines).contains(error.line) else { return FuzzFailure("error line \(error.line) outside 0...\(lines): \(error)") }
            return nil
        }
        let json = TodoFile.render(entries, as: .json)
        guard let fromJSON = try? TodoFile.parse(Data(json.utf8)), fromJSON == entries else {
            return FuzzFailure("JSON written then read changed the entries: \(json)")
        }
        // todo.txt has no escapes: a text that opens with `x `, `(A) ` or `[{` reads back as a
        // completion, a priority or JSON. Written, it is only held to read without a trap.
        _ = try? TodoFile.parse(Data(TodoFile.render(entries, as: .todotxt).utf8))
        return nil
    }
}
