import Foundation
import TodoModel

/// UTF-8 bytes → `ItemFile.parse` (the file `E` hands to the person's editor, read back).
/// Holds: a rejection is a `ParseError` naming a line inside the file; an item that reads,
/// rendered again, reads back to the same item and list name.
public enum ItemFileFuzzCheck {
    public static func check(_ input: UnsafeRawBufferPointer) -> FuzzFailure? {
        guard let text = String(validating: input, as: UTF8.self) else { return nil }
        let original = TodoItem(id: "item", text: "original")
        let today = DueDate("2026-11-26")
        let read: (item: TodoItem, listName: String?)
        do {
            read = try ItemFile.parse(text, original: original, today: today)
        } catch {
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
            guard (1...max(lines, 1)).contains(error.line) else { return FuzzFailure("error line \(error.line) outside 1...\(lines): \(error)") }
            return nil
        }
        let rendered = ItemFile.render(read.item, listName: read.listName)
        guard let again = try? ItemFile.parse(rendered, original: original, today: today) else {
            return FuzzFailure("the rendered item does not read: \(rendered)")
        }
        guard again.item == read.item, again.listName == read.listName else {
            return FuzzFailure("render then read changed the item: \(read) → \(again), via \(rendered)")
        }
        return nil
    }
}
