/// How many terminal columns a character takes: 0 (combining), 1, or 2 (wide: CJK, emoji).
/// Computed here rather than with `wcwidth`, which depends on the process locale.
public enum DisplayWidth {
    /// Printable ASCII: a column each.
    private static let printableASCII: ClosedRange<UInt32> = 0x20...0x7E

    /// Columns for one grapheme cluster.
    public static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }  // emoji presentation
        return of(first)
    }

    /// Columns for a string.
    public static func of(_ text: String) -> Int {
        // Printable ASCII, most of what a screen shows, takes a column a byte: no grapheme
        // breaking and no Unicode property lookups, which every frame paid for every text.
        if text.utf8.allSatisfy({ printableASCII.contains(UInt32($0)) }) { return text.utf8.count }
        return text.reduce(0) { $0 + of($1) }
    }

    static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if printableASCII.contains(v) { return 1 }
        if v == 0 || (v < 0x20) || (0x7F..<0xA0).contains(v) { return 0 }
        if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark { return 0 }
        if (0x200B...0x200F).contains(v) { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
