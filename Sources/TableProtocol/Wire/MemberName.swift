/// Names of columns and filter members: `[A-Za-z_][A-Za-z0-9_]{0,127}`.
public enum MemberName {
    /// The longest valid member name.
    public static let maxLength = 128

    /// True when the name matches `[A-Za-z_][A-Za-z0-9_]{0,127}`.
    public static func isValid(_ name: String) -> Bool {
        var count = 0
        for c in name.utf8 {
            let letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95
            guard letter || (count > 0 && c >= 48 && c <= 57) else { return false }
            count += 1
            if count > maxLength { return false }
        }
        return count > 0
    }
}
