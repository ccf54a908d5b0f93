extension String {
    /// The same as `lowercased()`, without Unicode case mapping for ASCII text (names, options
    /// and keywords, looked up several times on every request); unchanged text is not copied.
    public var caseFolded: String {
        var hasUpper = false
        for byte in utf8 {
            if byte >= 0x80 { return lowercased() }
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { hasUpper = true }
        }
        guard hasUpper else { return self }
        return String(decoding: utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
