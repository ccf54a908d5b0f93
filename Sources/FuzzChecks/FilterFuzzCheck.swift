import TableProtocol

/// UTF-8 bytes → `FilterParser.parse` (lexer included). Holds: a rejection is a `FilterParseError`
/// (typed throws guarantees the type) at a position inside the text; an accepted filter printed by
/// `FilterPrinter` parses back to the same tree, and that tree prints as the same text.
public enum FilterFuzzCheck {
    public static func check(_ input: UnsafeRawBufferPointer) -> FuzzFailure? {
        // The server hands the parser a String; bytes that are not UTF-8 never reach it.
        guard let text = String(validating: input, as: UTF8.self) else { return nil }
        let tree: FilterExpression
        do {
            tree = try FilterParser.parse(text)
        } catch {
            let length = text.unicodeScalars.count
            guard (0...length).contains(error.position) else { return FuzzFailure("error position \(error.position) outside 0...\(length): \(error)") }
            return nil
        }
        let printed = FilterPrinter.print(tree)
        let again: FilterExpression
        do {
            again = try FilterParser.parse(printed)
        } catch {
            return FuzzFailure("the printed filter does not parse (\(error)): \(printed)")
        }
        guard again == tree else { return FuzzFailure("print then parse changed the tree: \(printed) → \(FilterPrinter.print(again))") }
        guard FilterPrinter.print(again) == printed else { return FuzzFailure("the printer is not stable: \(printed) → \(FilterPrinter.print(again))") }
        return nil
    }
}
