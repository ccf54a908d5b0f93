/// The `$select` option: comma-separated member names.
public enum SelectList {
    /// Parses `a, b, c` into validated member names; whitespace-only text is an empty list.
    public static func parse(_ text: String) throws(FilterParseError) -> [String] {
        var result: [String] = []
        for item in QueryListSyntax.items(text) {
            let member = try QueryListSyntax.member(of: item)
            if item.words.count > 1 { throw FilterParseError("',' expected", at: item.words[1].position) }
            result.append(member.text)
        }
        return result
    }

    /// Canonical `$select` text.
    public static func format(_ members: [String]) -> String { members.joined(separator: ",") }
}
