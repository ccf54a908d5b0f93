import OfflineSync

extension QueryPredicate {
    /// Values one predicate names at most: each chunk is one SQL `IN` (FilterSQL), and a query
    /// binds so many values at most.
    static let valuesPerQuery = 1_000

    /// `field` equal to one of `values`; nil for none.
    static func oneOf(_ field: String, _ values: some Sequence<String>) -> QueryPredicate? {
        any(values.map { Field(field) == .string($0) })
    }

    /// `field` equal to one of `values`, as one predicate per `valuesPerQuery` of them.
    static func oneOf(_ field: String, chunking values: [String]) -> [QueryPredicate] {
        stride(from: 0, to: values.count, by: valuesPerQuery).compactMap { start in
            oneOf(field, values[start..<min(start + valuesPerQuery, values.count)])
        }
    }
}
