import OfflineSync

extension QueryPredicate {
    /// Values one predicate names at most. Many are one bound JSON array (FilterSQL's
    /// `isOneOf`); a list that must fall back to a placeholder a value still fits a statement
    /// (32,766 at most).
    static let valuesPerQuery = 30_000

    /// `field` equal to one of `values`; nil for none.
    static func oneOf(_ field: String, _ values: some Sequence<String>) -> QueryPredicate? {
        let values = Array(values)
        return values.isEmpty ? nil : Field(field).isOneOf(values)
    }

    /// `field` equal to one of `values`, as one predicate per `valuesPerQuery` of them.
    static func oneOf(_ field: String, chunking values: [String]) -> [QueryPredicate] {
        stride(from: 0, to: values.count, by: valuesPerQuery).compactMap { start in
            oneOf(field, values[start..<min(start + valuesPerQuery, values.count)])
        }
    }
}
