/// One `$orderby` term: a member and a direction.
public struct OrderByClause: Sendable, Hashable, CustomStringConvertible {
    /// The member (column) to sort by.
    public var member: String
    /// True for `desc`.
    public var descending: Bool

    /// Creates a term.
    public init(member: String, descending: Bool = false) {
        self.member = member
        self.descending = descending
    }

    /// Canonical text: `member` or `member desc`.
    public var description: String { descending ? "\(member) desc" : member }

    /// Parses `member [asc|desc], …` (direction in any case); whitespace-only text is an empty list.
    public static func parseList(_ text: String) throws(FilterParseError) -> [OrderByClause] {
        var result: [OrderByClause] = []
        for item in QueryListSyntax.items(text) {
            let member = try QueryListSyntax.member(of: item)
            var descending = false
            if item.words.count > 1 {
                let direction = item.words[1]
                switch direction.text.caseFolded {
                case "asc": descending = false
                case "desc": descending = true
                default: throw FilterParseError("'asc', 'desc' or ',' expected", at: direction.position)
                }
            }
            if item.words.count > 2 { throw FilterParseError("',' expected", at: item.words[2].position) }
            result.append(OrderByClause(member: member.text, descending: descending))
        }
        return result
    }

    /// Canonical `$orderby` text for a list of terms.
    public static func format(_ list: [OrderByClause]) -> String {
        list.map(\.description).joined(separator: ",")
    }
}
