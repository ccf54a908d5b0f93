/// A column a filter member resolves to.
public struct FilterColumn: Sendable, Hashable {
    /// The column's stored name.
    public var name: String
    /// What the column holds.
    public var type: ColumnType

    /// Creates a column.
    public init(name: String, type: ColumnType) {
        self.name = name
        self.type = type
    }
}
