import Foundation
import TodoModel

/// UTF-8 bytes → `QuickAdd` (a new item's line), and the same words as a question (`ItemQuery`)
/// and as a change of marked items (`ItemChange`). Holds: never traps; the text left is trimmed;
/// every word that names a field is taken (the last of a kind wins), so the text left, read
/// again, sets nothing; a question or change refused names a word the line holds; a question
/// read is answered for the line's own item.
public enum QuickAddFuzzCheck {
    public static func check(_ input: UnsafeRawBufferPointer) -> FuzzFailure? {
        guard let line = String(validating: input, as: UTF8.self) else { return nil }
        let today = DueDate("2026-11-26")!
        let read = QuickAdd(line, today: today)
        guard read.text == read.text.trimmingCharacters(in: .whitespacesAndNewlines) else { return FuzzFailure("untrimmed text: \(read.text)") }
        let again = QuickAdd(read.text, today: today)
        guard again.text == read.text, again.summary.isEmpty else { return FuzzFailure("the text left still sets fields: \(read.text) → \(again)") }
        let lowered = line.lowercased()
        do {
            let question = try ItemQuery(line)
            _ = question.matches(read.item, today: today, listIds: [:])
        } catch {
            guard error.word.isEmpty || lowered.contains(error.word.lowercased()) else { return FuzzFailure("a question's error names a word the line lacks: \(error)") }
        }
        do {
            _ = try ItemChange(line, today: today).applied(to: read.item, listId: nil)
        } catch {
            // An empty line changes nothing: its error names the whole (empty) line.
            guard error.word.isEmpty || lowered.contains(error.word.lowercased()) else { return FuzzFailure("a change's error names a word the line lacks: \(error)") }
        }
        return nil
    }
}
