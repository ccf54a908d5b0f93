import TableProtocol

/// A translated filter sub-expression: SQL text and what kind of value it yields.
struct TypedSQL {
    enum Kind: String {
        case string, number, boolean
        /// The `null` literal, or a member a dynamic table does not have.
        case null
    }

    var sql: String
    var kind: Kind
    /// True for a `true`/`false` literal, whose value is `literalValue`.
    var literalValue: Bool? = nil
    /// For a datetime literal: its instant (compared against ISO text columns).
    var dateTime: FilterDateTime? = nil

    static let null = TypedSQL(sql: "NULL", kind: .null)
    static let alwaysFalse = TypedSQL(sql: "(1 = 0)", kind: .boolean)
    static let alwaysTrue = TypedSQL(sql: "(1 = 1)", kind: .boolean)
}
