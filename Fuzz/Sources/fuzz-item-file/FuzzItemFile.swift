import TodoModel

/// UTF-8 bytes → `ItemFile.parse` (the file `E` hands to the person's editor, read back).
/// Holds: a rejection is a `ParseError` naming a line inside the file; an item that reads,
/// rendered again, reads back to the same item and list name.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzItemFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    let original = TodoItem(id: "item", text: "original")
    let today = DueDate("2026-11-26")
    let read: (item: TodoItem, listName: String?)
    do {
        read = try ItemFile.parse(text, original: original, today: today)
    } catch {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
        guard (1...max(lines, 1)).contains(error.line) else { fatalError("error line \(error.line) outside 1...\(lines): \(error)") }
        return 0
    }
    let rendered = ItemFile.render(read.item, listName: read.listName)
    guard let again = try? ItemFile.parse(rendered, original: original, today: today) else {
        fatalError("the rendered item does not read: \(rendered)")
    }
    guard again.item == read.item, again.listName == read.listName else {
        fatalError("render then read changed the item: \(read) → \(again), via \(rendered)")
    }
    return 0
}
