/// Collects bind values while SQL text is generated, handing out numbered placeholders.
public struct SQLBinds: Sendable {
    public let dialect: any SQLDialect
    public private(set) var values: [SQLValue] = []

    /// Starts with the given values.
    public init(dialect: any SQLDialect, values: [SQLValue] = []) {
        self.dialect = dialect
        self.values = values
    }

    /// Adds a value and returns its placeholder.
    public mutating func bind(_ value: SQLValue) -> String {
        values.append(value)
        return dialect.placeholder(values.count)
    }
}
