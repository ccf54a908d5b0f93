/// Collects bind values while SQL text is generated, handing out numbered placeholders.
struct SQLBinds {
    let dialect: any SQLDialect
    private(set) var values: [SQLValue] = []

    init(dialect: any SQLDialect, values: [SQLValue] = []) {
        self.dialect = dialect
        self.values = values
    }

    /// Adds a value and returns its placeholder.
    mutating func bind(_ value: SQLValue) -> String {
        values.append(value)
        return dialect.placeholder(values.count)
    }
}
