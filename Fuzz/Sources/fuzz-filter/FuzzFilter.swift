import TableProtocol

/// UTF-8 bytes → `FilterParser.parse` (lexer included). Holds: a rejection is a `FilterParseError`
/// (typed throws guarantees the type) at a position inside the text; an accepted filter printed by
/// `FilterPrinter` parses back to the same tree, and that tree prints as the same text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFilter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // The server hands the parser a String; bytes that are not UTF-8 never reach it.
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) else { return 0 }
    let tree: FilterExpression
    do {
        tree = try FilterParser.parse(text)
    } catch {
        let length = text.unicodeScalars.count
        guard (0...length).contains(error.position) else { fatalError("error position \(error.position) outside 0...\(length): \(error)") }
        return 0
    }
    let printed = FilterPrinter.print(tree)
    let again: FilterExpression
    do {
        again = try FilterParser.parse(printed)
    } catch {
        fatalError("the printed filter does not parse (\(error)): \(printed)")
    }
    guard again == tree else { fatalError("print then parse changed the tree: \(printed) → \(FilterPrinter.print(again))") }
    guard FilterPrinter.print(again) == printed else { fatalError("the printer is not stable: \(printed) → \(FilterPrinter.print(again))") }
    return 0
}
