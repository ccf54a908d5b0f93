/// Validation of item ids (the `id` system property).
public enum ItemID {
    /// The longest valid id, in Unicode scalars.
    public static let maxLength = 255

    /// An error message when the id is invalid, or nil when it is acceptable.
    public static func validate(_ id: String) -> String? {
        let scalars = id.unicodeScalars
        let count = scalars.count
        if count == 0 { return "The item id must not be empty" }
        if count > maxLength { return "The item id must be at most \(maxLength) characters long" }
        if id == "." || id == ".." { return "The item id must not be '.' or '..'" }
        for c in scalars {
            // ASCII's controls are known; looking the category up showed in a server's batch insert
            // (BENCHMARKS.md, "OfflineSync": push of 10,000).
            if c.isASCII ? (c.value < 0x20 || c.value == 0x7F) : c.properties.generalCategory == .control {
                return "The item id must not contain control characters"
            }
            if c == "+" || c == "?" || c == "\\" || c == "/" || c == "\"" {
                return "The item id must not contain the character '\(c)'"
            }
        }
        return nil
    }
}
