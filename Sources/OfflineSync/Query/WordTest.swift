import TableProtocol

/// Whether a column of words separated by spaces (a `.wordSet`, such as tags) holds one word,
/// as a filter any server reads: the whole value, its first word, its last, or one between.
/// The store finds that shape again to answer it from the table's word index.
enum WordTest {
    /// `column eq 'w' or startswith(column, 'w ') or endswith(column, ' w') or substringof(' w ', column)`.
    static func expression(column: FilterExpression, word: String) -> FilterExpression {
        func literal(_ text: String) -> FilterExpression { FilterExpression(.literal(.string(text))) }
        let terms = [
            FilterExpression(.binary(.eq, column, literal(word))),
            FilterExpression(.call(.startswith, [column, literal(word + " ")])),
            FilterExpression(.call(.endswith, [column, literal(" " + word)])),
            FilterExpression(.call(.substringof, [literal(" " + word + " "), column])),
        ]
        return terms.dropFirst().reduce(terms[0]) { FilterExpression(.binary(.or, $0, $1)) }
    }

    /// The column and word of an expression `expression(column:word:)` made on a column (however
    /// its `or`s were grouped since), or nil for any other expression.
    static func match(_ expression: FilterExpression) -> (column: String, word: String)? {
        var terms: [FilterExpression] = []
        guard collect(expression, into: &terms), terms.count == 4, case .binary(.eq, let left, let right) = terms[0].node,
              case .member(let column) = left.node, case .literal(.string(let word)) = right.node else { return nil }
        var expected: [FilterExpression] = []
        _ = collect(Self.expression(column: left, word: word), into: &expected)
        return terms == expected ? (column, word) : nil
    }

    /// Appends the terms of an `or` chain; false as soon as there are more than a word test has
    /// (a list of thousands of ids, read on every window, is not walked to its end).
    private static func collect(_ expression: FilterExpression, into terms: inout [FilterExpression]) -> Bool {
        guard case .binary(.or, let left, let right) = expression.node else {
            terms.append(expression)
            return terms.count <= 4
        }
        return collect(left, into: &terms) && collect(right, into: &terms)
    }
}
