/// How a column's two new values merge when both sides changed it.
public enum ColumnMergeRule: String, Sendable, Hashable {
    /// One value: different changes on both sides clash (the default).
    case value
    /// A set of words in a text column, separated by spaces (tags): every word either side added
    /// and every word either side removed since the base holds, so both sides' edits survive and
    /// the two never clash. Merged sets are written sorted, one space apart; empty is null.
    case wordSet
    /// Changed on both sides, the server's value stays, without asking: for values whose
    /// difference does not matter to anyone (a completion time when both completed the item).
    case serverWins

    /// Merges a set column: the server's words, plus the words this side added since the base,
    /// minus the words it removed (without a base, the union).
    static func mergeWords(field: String, base: (any MergeBase)?, local: JSONValue, server: JSONValue) -> JSONValue {
        let mine = words(local), theirs = words(server)
        guard let base else { return wordSetValue(mine.union(theirs)) }
        let added = mine.filter { !base.holdsWord($0, in: field) }
        let removed = theirs.filter { base.holdsWord($0, in: field) && !mine.contains($0) }
        return wordSetValue(theirs.subtracting(removed).union(added))
    }

    /// The words of a set column's value.
    public static func words(_ value: JSONValue) -> Set<String> {
        guard case .string(let text) = value else { return [] }
        return Set(text.split(whereSeparator: \.isWhitespace).map(String.init))
    }

    /// A set of words as the column's value: sorted, one space apart; null when empty.
    public static func wordSetValue(_ words: Set<String>) -> JSONValue {
        words.isEmpty ? .null : .string(words.sorted().joined(separator: " "))
    }
}

extension Dictionary where Key == String, Value == ColumnMergeRule {
    /// The rule for `field`, its name matched in any letter case; nil when it has none.
    public func rule(of field: String) -> ColumnMergeRule? {
        self[field] ?? first { $0.key.lowercased() == field.lowercased() }?.value
    }
}
