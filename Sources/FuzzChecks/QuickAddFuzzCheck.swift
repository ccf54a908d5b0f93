import Foundation
import TodoModel

/// UTF-8 bytes → `QuickAdd` (a new item's line). Holds: never traps; the text left is trimmed;
/// every word that names a field is taken (the last of a kind wins), so the text left, read
/// again, sets nothing.
public enum QuickAddFuzzCheck {
    public static func check(_ input: UnsafeRawBufferPointer) -> FuzzFailure? {
        guard let line = String(validating: input, as: UTF8.self) else { return nil }
        let today = DueDate("2026-11-26")!
        let read = QuickAdd(line, today: today)
        guard read.text == read.text.trimmingCharacters(in: .whitespacesAndNewlines) else { return FuzzFailure("untrimmed text: \(read.text)") }
        let again = QuickAdd(read.text, today: today)
        guard again.text == read.text, again.summary.isEmpty else { return FuzzFailure("the text left still sets fields: \(read.text) → \(again)") }
        return nil
    }
}
