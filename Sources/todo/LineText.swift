extension String {
    /// The text as one safe line of output: each control character (a tab or line break, which
    /// would break the line's fields; an escape, which a terminal would obey, even in text
    /// another device wrote) and each line or paragraph separator becomes U+FFFD.
    var asOutputField: String {
        guard unicodeScalars.contains(where: Self.isUnsafe) else { return self }
        return String(String.UnicodeScalarView(unicodeScalars.map { Self.isUnsafe($0) ? "\u{FFFD}" : $0 }))
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
