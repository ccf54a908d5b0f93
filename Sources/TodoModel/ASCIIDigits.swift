/// A run of ASCII digits in text's bytes, read as a number: the dates of todo files and of
/// iCalendar values are fixed-width digits, read byte by byte rather than by splitting text.
enum ASCIIDigits {
    /// The number `bytes[range]` spells; nil when the range runs past the end or holds a non-digit.
    static func number<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ range: Range<Int>) -> Int? where Bytes.Index == Int {
        guard range.lowerBound >= bytes.startIndex, range.upperBound <= bytes.endIndex else { return nil }
        var value = 0
        for index in range {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
        }
        return value
    }
}
