/// How far clients may grow the schema (dynamic schema): kept well under the engines' own
/// limits, so a runaway client meets a clear 400 instead of an engine error halfway through.
public struct SchemaLimits: Sendable {
    /// The most tables clients may create (the server's own `__` tables are not counted).
    public var maxTables: Int
    /// The most columns a table may have, its system columns included (the owner column is not).
    public var maxColumnsPerTable: Int

    /// Creates limits; the defaults are the server's.
    public init(maxTables: Int = 100, maxColumnsPerTable: Int = 200) {
        self.maxTables = maxTables
        self.maxColumnsPerTable = maxColumnsPerTable
    }
}
