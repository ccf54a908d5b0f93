import TodoModel

/// UTF-8 bytes → `QuickAdd` (a new item's line). Holds: never traps; the text left is trimmed;
/// every word that names a field is taken (the last of a kind wins), so the text left, read
/// again, sets nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQuickAdd(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let line = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    let today = DueDate("2026-11-26")!
    let read = QuickAdd(line, today: today)
    guard read.text == read.text.trimmingCharacters(in: .whitespacesAndNewlines) else { fatalError("untrimmed text: \(read.text)") }
    let again = QuickAdd(read.text, today: today)
    guard again.text == read.text, again.summary.isEmpty else { fatalError("the text left still sets fields: \(read.text) → \(again)") }
    return 0
}
